package b2nd

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/array/arraytest"
)

// TestSource_conformance runs the array conformance test on every
// fixture the format supports; unsupported fixtures must fail to open
// with array.ErrUnsupported.
func TestSource_conformance(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		t.Run(fx.File, func(t *testing.T) {
			p := filepath.Join("testdata", fx.File)
			open := func() (array.Source, error) { return Format.Open(p, array.Options{}) }
			src, err := open()
			if fx.ExpectError != nil {
				if !errors.Is(err, array.ErrUnsupported) {
					t.Fatalf("open: %v, want ErrUnsupported", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			src.Close()
			arraytest.Check(t, open, arraytest.Options{})
		})
	}
}

// TestDescribe: the size of a contiguous frame is its file's, that of a
// sparse frame its directory's files together; the layout version is the
// frame format version.
func TestDescribe(t *testing.T) {
	for _, name := range []string{"attrs_dim_names.b2nd", "sparse_frame.b2nd"} {
		p := filepath.Join("testdata", name)
		src, err := Open(p, array.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := int64(0)
		filepath.Walk(p, func(_ string, fi os.FileInfo, _ error) error {
			if fi.Mode().IsRegular() {
				want += fi.Size()
			}
			return nil
		})
		if d := src.Describe(); d.Size != want || d.Format != "b2nd" || d.LayoutVersion != 2 || d.Footer != "ok" {
			t.Errorf("%s: %+v, want size %d, format b2nd, version 2", name, d, want)
		}
		src.Close()
	}
}
