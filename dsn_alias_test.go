package tetsql_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql"
)

// TestDefaultAlias: a schema is named after the file without its
// extension, reduced to letters, digits and _; "." names the directory it
// is (a Blosc2 sparse frame opened from inside it).
func TestDefaultAlias(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"testdata/demo.tet", "demo"},
		{"/data/era5-t2m.b2nd", "era5_t2m"},
		{"/data/sparse.b2nd/", "sparse"},
		{"x", "x"},
		{"/data/2024.tet", "t_2024"},
		{"/data/a.b.c", "a_b"},
		{".", filepath.Base(wd)},
	} {
		if got := tetsql.DefaultAlias(tc.path); got != tc.want {
			t.Errorf("DefaultAlias(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
