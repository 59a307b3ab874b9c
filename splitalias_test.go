package tetsql_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql"
)

// TestSplitAlias: ALIAS=PATH names a schema, but a path that starts with
// a hive key=value directory (year=2024/…) that exists is a path.
func TestSplitAlias(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join("year=2024", "month=01"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join("year=2024", "a.tet"), nil, 0o644)
	os.MkdirAll("data", 0o755)
	for _, c := range []struct{ arg, alias, path string }{
		{"year=2024/a.tet", "", "year=2024/a.tet"},
		{"year=2024/**/*.tet", "", "year=2024/**/*.tet"},
		{"era5=data/*.tet", "era5", "data/*.tet"},
		{"era5=year=2024/*.tet", "era5", "year=2024/*.tet"},
		{"x=missing/*.tet", "x", "missing/*.tet"},
		{"a.tet", "", "a.tet"},
		{"1x=data/a.tet", "", "1x=data/a.tet"},
		{"x=", "", "x="},
	} {
		got := tetsql.SplitAlias(c.arg)
		if got.Alias != c.alias || got.Path != c.path {
			t.Errorf("%q: %+v, want alias %q path %q", c.arg, got, c.alias, c.path)
		}
	}
}
