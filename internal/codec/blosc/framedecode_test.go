package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// superChunks are the plain super-chunk frames of testdata (written by
// make_frames.py) with the bytes each decodes to, recomputed here from the
// formula the script used.
var superChunks = []struct {
	file       string
	want       func() []byte
	chunks     int
	lastLen    int64
	kind       ChunkKind // of every chunk
	attributes int
}{
	{"schunk_i32_tail.b2frame", func() []byte {
		b := make([]byte, 4000)
		for i := range 1000 {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(i))
		}
		return b
	}, 4, 928, ChunkStored, 0},
	{"schunk_u8_lz4.b2frame", func() []byte {
		b := make([]byte, 10000)
		for i := range b {
			b[i] = byte((i*7 + i/13) % 251)
		}
		return b
	}, 3, 1808, ChunkStored, 0},
	{"schunk_f64_even.b2frame", func() []byte {
		b := make([]byte, 2000)
		for i := range 250 {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(float64(i)/4))
		}
		return b
	}, 2, 1000, ChunkStored, 0},
	{"schunk_empty.b2frame", func() []byte { return []byte{} }, 0, 0, ChunkStored, 0},
	{"schunk_nan.b2frame", func() []byte {
		b := make([]byte, 2000)
		for i := range 250 {
			binary.LittleEndian.PutUint64(b[8*i:], 0x7ff8000000000000)
		}
		return b
	}, 3, 400, ChunkNaN, 0},
	{"schunk_zeros.b2frame", func() []byte { return make([]byte, 1000) }, 4, 232, ChunkZeros, 0},
}

// TestDecodeFrame_superChunks: frames with no metalayer, of several
// codecs and filters, with a short last chunk, special chunks and no
// chunks at all, decode to the data they were written from.
func TestDecodeFrame_superChunks(t *testing.T) {
	for _, tc := range superChunks {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			f, err := ParseFrame(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Chunks) != tc.chunks || len(f.Metalayers) != 0 || len(f.VLMeta) != tc.attributes {
				t.Fatalf("%d chunks, metalayers %q, %d attributes; want %d chunks, none, %d",
					len(f.Chunks), f.MetalayerNames, len(f.VLMeta), tc.chunks, tc.attributes)
			}
			for i, c := range f.Chunks {
				if c.Kind != tc.kind {
					t.Errorf("chunk %d is %v, want %v", i, c.Kind, tc.kind)
				}
			}
			if n := len(f.Chunks); n > 0 && f.ChunkLen(n-1) != tc.lastLen {
				t.Errorf("last chunk of %d bytes, want %d", f.ChunkLen(n-1), tc.lastLen)
			}
			got, err := DecodeFrame(data, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.want(); !bytes.Equal(got, want) {
				t.Fatalf("decoded %d bytes, want %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
			}
			if _, err := DecodeFrame(data, f.NBytes-1); f.NBytes > 0 && !errors.Is(err, ErrTooLarge) {
				t.Errorf("limit nbytes-1: err = %v, want ErrTooLarge", err)
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestDecodeFrame_fixtures: on every N-d fixture, contiguous or sparse,
// decoding the frame equals the chunks the test-only frame walker finds,
// each decoded on its own and concatenated (padding included).
func TestDecodeFrame_fixtures(t *testing.T) {
	dir := fixtureDir()
	for _, fx := range loadFixtures(t) {
		if fx.ExpectError != nil {
			continue
		}
		t.Run(fx.File, func(t *testing.T) {
			p := filepath.Join(dir, fx.File)
			tf, err := readTestFrame(p)
			if err != nil {
				t.Fatal(err)
			}
			var want []byte
			for _, c := range tf.chunks {
				b, err := tf.decodeChunk(c)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, b...)
			}
			var f *Frame
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				f, err = ParseSparseDir(p)
			} else {
				var data []byte
				if data, err = os.ReadFile(p); err == nil {
					f, err = ParseFrame(data)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.Decode(1 << 30)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(got)) != f.NBytes || !bytes.Equal(got, want) {
				t.Fatalf("decoded %d bytes (nbytes %d), want %d (first difference at %d)", len(got), f.NBytes, len(want), firstDiff(got, want))
			}
		})
	}
}

// TestDecodeFrame_malformed: cut or lying super-chunks are refused with
// the right sentinel, before any allocation of the lying size.
func TestDecodeFrame_malformed(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "schunk_i32_tail.b2frame"))
	if err != nil {
		t.Fatal(err)
	}
	put64 := func(at int, v uint64) func([]byte) []byte {
		return func(b []byte) []byte { binary.BigEndian.PutUint64(b[at:], v); return b }
	}
	put32 := func(at int, v uint32) func([]byte) []byte {
		return func(b []byte) []byte { binary.BigEndian.PutUint32(b[at:], v); return b }
	}
	tests := []struct {
		name   string
		mutate func([]byte) []byte
		limit  int64
		is     error
		want   string
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-30] }, 1 << 20, ErrTruncated, "frame_len"},
		{"nbytes above the limit", nil, 3999, ErrTooLarge, "4000 bytes"},
		{"nbytes lies past the limit", put64(30, 1<<40), 1 << 30, ErrTooLarge, "1099511627776 bytes"}, // refused on the header, before the index is read
		{"nbytes one short", put64(30, 3999), 1 << 20, ErrCorrupt, "chunk nbytes 928"},
		{"nbytes one chunk more", put64(30, 4000+1024), 1 << 20, ErrCorrupt, "make 5 chunks"},
		{"chunksize smaller", put32(58, 1000), 1 << 20, ErrCorrupt, "chunk nbytes 1024"},
		{"chunksize 0", put32(58, 0), 1 << 20, ErrUnsupported, "variable chunk size"},
		{"chunksize -1 with data", put32(58, 0xffffffff), 1 << 20, ErrCorrupt, "chunksize -1"},
		{"typesize", put32(48, 8), 1 << 20, ErrCorrupt, "typesize"},
		{"sparse", func(b []byte) []byte { b[26] = b[26]&0xf0 | frameSparse; return b }, 1 << 20, ErrUnsupported, "sparse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := bytes.Clone(good)
			if tc.mutate != nil {
				b = tc.mutate(b)
			}
			out, err := DecodeFrame(b, tc.limit)
			if err == nil {
				t.Fatalf("accepted: %d bytes", len(out))
			}
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %v naming %q", err, tc.is, tc.want)
			}
		})
	}
}

// TestParseFrame_hugeChunkCount: nbytes of 2^61 + k in chunks of one
// byte declare 2^61 + k chunks, whose 8 bytes each overflow an int64 to
// the 8k bytes of a real index of k chunks; the parser refuses the count
// (ErrCorrupt) instead of passing its size checks into a panicking
// allocation.
func TestParseFrame_hugeChunkCount(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.b2frame"))
	tried := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ParseFrame(b)
		if err != nil || len(f.Chunks) == 0 {
			continue
		}
		tried++
		binary.BigEndian.PutUint64(b[30:], 1<<61+uint64(len(f.Chunks))) // nbytes
		binary.BigEndian.PutUint32(b[58:], 1)                           // chunksize
		if _, err := ParseFrame(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want refused as corrupt", p, err)
		}
	}
	if tried == 0 {
		t.Fatal("no frame with chunks in testdata")
	}
}

// TestMsgReader_valueBound: a msgpack array declaring 2^32-1 nil values,
// each one byte, stops at MaxMsgValues with an error instead of building
// billions of Go values.
func TestMsgReader_valueBound(t *testing.T) {
	b := append([]byte{0xdd, 0xff, 0xff, 0xff, 0xff}, bytes.Repeat([]byte{0xc0}, MaxMsgValues+10)...)
	if _, err := NewMsgReader(b, "test").Value(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "values") {
		t.Fatalf("%v, want refused past %d values", err, MaxMsgValues)
	}
	ok := append([]byte{0xdd, 0, 0, 0x10, 0}, bytes.Repeat([]byte{0xc0}, 1<<12)...)
	if v, err := NewMsgReader(ok, "test").Value(); err != nil || len(v.([]any)) != 1<<12 {
		t.Fatalf("4096 values: %v", err)
	}
}
