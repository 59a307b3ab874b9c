package b2nd

import (
	"errors"
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
