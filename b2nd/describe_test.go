package b2nd

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/array"
)

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

// TestNaNChunk_bigEndian: C-Blosc2 writes a NaN chunk's values in the
// machine's (little-endian) order whatever the dtype, so a big-endian
// float array reads back the swapped bytes, as python-blosc2 reads it:
// here the special_nans fixture relabelled ">f4".
func TestNaNChunk_bigEndian(t *testing.T) {
	data := readFixture(t, "special_nans.b2nd")
	i := bytes.Index(data, []byte("<f4"))
	if i < 0 {
		t.Fatal("no <f4 dtype in the fixture")
	}
	data[i] = '>'
	p := filepath.Join(t.TempDir(), "be.b2nd")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Open(p, array.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	b, err := src.arr.ReadChunk(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Float32frombits(bits.ReverseBytes32(0x7fc00000)) // 6.9055e-41
	for k := 0; k+4 <= len(b); k += 4 {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(b[k:])); got != want {
			t.Fatalf("element %d: %g, want %g", k/4, got, want)
		}
	}
}
