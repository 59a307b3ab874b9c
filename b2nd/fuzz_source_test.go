package b2nd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// FuzzOpen: any file either fails to open or gives a source whose every
// chunk reads (whole, in part, and in a deep Verify) with data of the
// chunk's size or an error; never a panic, a hang or an allocation sized
// by an unchecked field. The decoder is the real one.
func FuzzOpen(f *testing.F) {
	for _, name := range []string{"attrs_dim_names.b2nd", "special_mixed.b2nd", "rank0.b2nd", "filter_delta.b2nd",
		"dtype_be_float64.b2nd", "special_value_be_f8.b2nd", "zstd_dict.b2nd", "codec_zlib.b2nd", "memcpyed.b2nd"} {
		f.Add(readFixture(f, name))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "f.b2nd")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := Open(p, array.Options{MaxChunkBytes: 1 << 22})
		if err != nil {
			return
		}
		defer src.Close()
		a := src.arr
		in := a.Info()
		if in.ChunkCount()*src.frame.ChunkSize > 1<<26 {
			return // valid, but too much to decode in a fuzz iteration
		}
		r := in.Rank()
		start, extent := make([]int64, r), make([]int64, r)
		var buf []byte
		for id := range in.ChunkCount() {
			n := in.ChunkBox(id, start, extent) * int64(in.DType.Size())
			if b, err := a.ReadChunk(id, buf); err == nil {
				if int64(len(b)) != n {
					t.Fatalf("chunk %d: %d bytes, want %d", id, len(b), n)
				}
				buf = b
			}
			if r == 0 || n == 0 {
				continue
			}
			lo, hi := make([]int64, r), make([]int64, r)
			for d := range r {
				lo[d], hi[d] = extent[d]/2, extent[d]/2+1
			}
			if b, _, _, err := a.ReadChunkBox(id, lo, hi, nil); err == nil && int64(len(b)) != n {
				t.Fatalf("chunk %d box: %d bytes, want %d", id, len(b), n)
			}
		}
		if _, err := src.Verify(true, 1<<22); err != nil {
			return
		}
	})
}
