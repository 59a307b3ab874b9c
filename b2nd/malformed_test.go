package b2nd

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/tetsql/tetsql/internal/codec/blosc"
	"os"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fields of a fixture frame the mutations below aim at.
type layoutPos struct {
	headerLen, cbytes, index int // index: the index chunk's start
	meta                     int // the b2nd metalayer content (after its bin32 length)
}

func positions(t *testing.T, b []byte) layoutPos {
	t.Helper()
	p := layoutPos{headerLen: int(binary.BigEndian.Uint32(b[11:])), cbytes: int(binary.BigEndian.Uint64(b[39:]))}
	p.index = p.headerLen + p.cbytes
	i := bytes.Index(b, []byte{0x97, 0x00})
	if i < 0 || i > p.headerLen {
		t.Fatal("no b2nd metalayer content in the header")
	}
	p.meta = i
	return p
}

// TestMalformed mutates good frames one field at a time; each must be
// refused with the right kind of error and a message naming the field.
// The frame fields are the codec package's to check: here they show that
// its errors reach callers wrapping the array sentinels.
func TestMalformed(t *testing.T) {
	good := readFixture(t, "special_mixed.b2nd") // memcpyed index, stored and special chunks
	if _, err := Parse(good); err != nil {
		t.Fatal(err)
	}
	p := positions(t, good)
	put32 := func(at int, v uint32) func([]byte) { return func(b []byte) { binary.BigEndian.PutUint32(b[at:], v) } }
	put64 := func(at int, v uint64) func([]byte) { return func(b []byte) { binary.BigEndian.PutUint64(b[at:], v) } }
	idx := func(i int, v uint64) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint64(b[p.index+32+8*i:], v) }
	}
	tests := []struct {
		name   string
		mutate func([]byte) []byte
		is     error
		want   string
	}{
		{"bad magic", set(func(b []byte) { b[3] = 'X' }), array.ErrCorrupt, "magic"},
		{"truncated", func(b []byte) []byte { return b[:len(b)-1] }, array.ErrTruncated, "frame_len"},
		{"only the magic", func(b []byte) []byte { return b[:12] }, array.ErrTruncated, "fixed header"},
		{"header_len small", set(put32(11, 20)), array.ErrCorrupt, "header_len"},
		{"header_len past the frame", set(put32(11, 1<<30)), array.ErrCorrupt, "header_len"},
		{"frame_len huge", set(put64(16, 1<<62)), array.ErrTruncated, "frame_len"},
		{"frame version", set(func(b []byte) { b[25] = b[25]&0xf0 | 4 }), array.ErrUnsupported, "version"},
		{"32-bit offsets", set(func(b []byte) { b[25] = b[25]&0xcf | 0x20 }), array.ErrUnsupported, "offset width"},
		{"variable-length chunks", set(func(b []byte) { b[25] |= 0x40 }), array.ErrUnsupported, "variable-length chunks"},
		{"nbytes huge", set(put64(30, 1<<60)), array.ErrCorrupt, "nbytes"},
		{"cbytes huge", set(put64(39, 1<<63-1)), array.ErrCorrupt, "cbytes"},
		{"cbytes past the trailer", set(put64(39, uint64(p.cbytes+65))), array.ErrCorrupt, "runs past the trailer"},
		{"nbytes negative", set(put64(30, 1<<63)), array.ErrCorrupt, "negative"},
		{"chunksize lies", set(put32(58, 1000)), array.ErrCorrupt, "chunksize"},
		{"chunksize 0", set(put32(58, 0)), array.ErrUnsupported, "variable chunk size"},
		{"typesize 0", set(put32(48, 0)), array.ErrCorrupt, "typesize"},
		{"ndim 17", set(func(b []byte) { b[p.meta+2] = 17 }), array.ErrCorrupt, "ndim"},
		{"shape 10^12", set(put64(p.meta+5, 1e12)), array.ErrCorrupt, "nbytes"},
		{"shape negative", set(put64(p.meta+5, 1<<63)), array.ErrCorrupt, "shape[0]"},
		{"metalayer marker", set(func(b []byte) { b[p.meta] = 0x96 }), array.ErrCorrupt, "6 entries"},
		{"metalayer position", set(put32(87+4+3+5+1, 1<<20)), array.ErrCorrupt, "position"},
		{"offset past data", set(idx(0, uint64(p.cbytes))), array.ErrCorrupt, "past the data section"},
		{"offset into the middle", set(idx(3, 8)), array.ErrCorrupt, "chunk 3"},
		{"special kind", set(idx(0, 0x83<<56)), array.ErrCorrupt, "unknown kind"},
		{"index chunk nbytes", set(func(b []byte) { binary.LittleEndian.PutUint32(b[p.index+4:], 1<<30) }), array.ErrTooLarge, "index chunk"},
		{"index chunk cbytes", set(func(b []byte) { binary.LittleEndian.PutUint32(b[p.index+12:], 1<<30) }), array.ErrCorrupt, "cbytes"},
		{"trailer_len", func(b []byte) []byte { put32(len(b)-22, 1<<30)(b); return b }, array.ErrCorrupt, "trailer_len"},
		{"trailer marker", func(b []byte) []byte { b[len(b)-23] = 0; return b }, array.ErrCorrupt, "trailer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.mutate(bytes.Clone(good))
			f, err := Parse(b)
			if err == nil {
				t.Fatalf("accepted: %v chunks %v", f.Shape, f.Chunks)
			}
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %v naming %q", err, tc.is, tc.want)
			}
		})
	}
}

// set turns an in-place mutation into one returning the buffer.
func set(m func([]byte)) func([]byte) []byte {
	return func(b []byte) []byte { m(b); return b }
}

// TestMalformed_everyByte: flipping any single byte of a frame either
// still parses into an array whose layout keeps its promises or fails
// with an error; neither panics. (Prefixes and the frame's own promises
// are the codec package's tests.)
func TestMalformed_everyByte(t *testing.T) {
	for _, name := range []string{"attrs_dim_names.b2nd", "special_mixed.b2nd", "rank0.b2nd", "empty_axis.b2nd"} {
		good := readFixture(t, name)
		for i := range good {
			b := bytes.Clone(good)
			b[i] ^= 0xff
			if f, err := Parse(b); err == nil {
				checkInvariants(t, f, b)
			} else if !errors.Is(err, array.ErrCorrupt) && !errors.Is(err, array.ErrUnsupported) && !errors.Is(err, array.ErrTooLarge) && !errors.Is(err, array.ErrTruncated) {
				t.Fatalf("%s: byte %d flipped: %v wraps no array sentinel", name, i, err)
			}
		}
	}
}

// checkInvariants asserts what a parsed Frame promises, whatever the
// input: chunk ranges inside the frame, one blosc.ChunkRef per grid cell.
func checkInvariants(t testing.TB, f *Frame, data []byte) {
	t.Helper()
	want := int64(1)
	for d := range f.Shape {
		want *= ceilDiv(f.Shape[d], f.ChunkShape[d])
	}
	if int64(len(f.Chunks)) != want {
		t.Fatalf("%d chunks for grid of %d", len(f.Chunks), want)
	}
	for i, c := range f.Chunks {
		if c.Kind == blosc.ChunkStored && (c.Offset < 0 || c.Size < 16 || c.Offset+c.Size > int64(len(data))) {
			t.Fatalf("chunk %d [%d, +%d) outside %d bytes", i, c.Offset, c.Size, len(data))
		}
	}
}
