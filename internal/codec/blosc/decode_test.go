package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// smooth returns n bytes of slowly varying typesize-wide integers, which
// the filters and codecs actually compress.
func smooth(r *rand.Rand, n, ts int) []byte {
	out := make([]byte, n)
	v := uint64(r.IntN(1000))
	for i := 0; i+ts <= n; i += ts {
		v += uint64(r.IntN(5))
		for b := 0; b < ts; b++ {
			out[i+b] = byte(v >> (8 * (b % 8)))
		}
	}
	return out
}

// TestDecodePipelines writes chunks with every codec this test can encode
// and filter pipelines in various slots, split and unsplit, with leftover
// blocks, and checks Decode restores the data.
func TestDecodePipelines(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pipelines := []struct {
		name          string
		filters, meta [6]uint8
	}{
		{"none", [6]uint8{}, [6]uint8{}},
		{"shuffle5", [6]uint8{5: filterShuffle}, [6]uint8{}},
		{"shuffle0", [6]uint8{0: filterShuffle}, [6]uint8{}},
		{"bitshuffle", [6]uint8{5: filterBitshuffle}, [6]uint8{}},
		{"delta", [6]uint8{0: filterDelta}, [6]uint8{}},
		{"delta+shuffle", [6]uint8{0: filterDelta, 5: filterShuffle}, [6]uint8{}},
		{"shuffle+bitshuffle", [6]uint8{0: filterShuffle, 5: filterBitshuffle}, [6]uint8{}},
		{"shuffle+bytedelta", [6]uint8{0: filterShuffle, 1: filterBytedelta}, [6]uint8{}},
		{"shuffle+bytedelta meta", [6]uint8{0: filterShuffle, 1: filterBytedelta}, [6]uint8{0: 4, 1: 4}},
		{"trunc_prec", [6]uint8{0: filterTruncPrec}, [6]uint8{0: 10}},
	}
	for _, codec := range []uint8{codecLZ4, codecZlib, codecZstd} {
		for _, p := range pipelines {
			for _, ts := range []int{1, 4, 8} {
				for _, split := range []bool{false, true} {
					name := fmt.Sprintf("%s/%s/ts%d/split=%v", codecName(codec), p.name, ts, split)
					n := 1000 * ts
					if p.meta[1] != 0 && n%4 != 0 {
						continue
					}
					data := smooth(r, n, ts)
					data = append(data, 7) // a tail shorter than an element
					s := chunkSpec{typesize: ts, blocksize: 256 * ts, codec: codec, dontSplit: !split,
						filters: p.filters, meta: p.meta}
					chunk := buildChunk(t, s, data)
					out := make([]byte, len(data))
					if err := Decode(out, append(chunk, 0xEE)); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !bytes.Equal(out, data) {
						t.Fatalf("%s: decoded bytes differ", name)
					}
				}
			}
		}
	}
}

// TestDecodeSpecial covers the chunk kinds without blocks.
func TestDecodeSpecial(t *testing.T) {
	hdr := func(kind byte, ts int, nbytes int, extra []byte) []byte {
		h := make([]byte, extHeaderLen)
		h[0], h[1], h[2], h[3] = 5, 1, flagShuffle|flagBitshuffle, byte(ts)
		binary.LittleEndian.PutUint32(h[4:], uint32(nbytes))
		binary.LittleEndian.PutUint32(h[12:], uint32(extHeaderLen+len(extra)))
		h[31] = kind << 4
		return append(h, extra...)
	}
	nan8 := []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f}
	tests := []struct {
		name  string
		chunk []byte
		want  []byte
	}{
		{"zeros", hdr(1, 4, 8, nil), make([]byte, 8)},
		{"uninit", hdr(4, 2, 6, nil), make([]byte, 6)},
		{"nan f4", hdr(2, 4, 8, nil), []byte{0, 0, 0xc0, 0x7f, 0, 0, 0xc0, 0x7f}},
		{"nan f8", hdr(2, 8, 8, nil), nan8},
		{"value i2", hdr(3, 2, 6, []byte{1, 2}), []byte{1, 2, 1, 2, 1, 2}},
		{"memcpyed", func() []byte {
			h := hdr(0, 1, 3, []byte{9, 8, 7})
			h[2] |= flagMemcpyed
			return h
		}(), []byte{9, 8, 7}},
	}
	for _, tt := range tests {
		out := bytes.Repeat([]byte{0xAA}, len(tt.want))
		if err := Decode(out, tt.chunk); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		} else if !bytes.Equal(out, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, out, tt.want)
		}
	}
}

// TestDecodeRefuses checks malformed and unsupported chunks fail with the
// right sentinel and a message naming the problem.
func TestDecodeRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	data := smooth(r, 4096, 4)
	good := buildChunk(t, chunkSpec{typesize: 4, blocksize: 1024, codec: codecZstd,
		filters: [6]uint8{5: filterShuffle}}, data)
	mod := func(f func(c []byte) []byte) []byte { return f(bytes.Clone(good)) }
	put := func(c []byte, at int, v uint32) []byte { binary.LittleEndian.PutUint32(c[at:], v); return c }
	tests := []struct {
		name  string
		chunk []byte
		want  error
		words string
	}{
		{"short", good[:10], ErrCorrupt, "shorter"},
		{"truncated", good[:len(good)-1], ErrCorrupt, "cbytes"},
		{"version 7", mod(func(c []byte) []byte { c[0] = 7; return c }), ErrUnsupported, "version 7"},
		{"typesize 0", mod(func(c []byte) []byte { c[3] = 0; return c }), ErrCorrupt, "typesize"},
		{"blocksize 0", mod(func(c []byte) []byte { return put(c, 8, 0) }), ErrCorrupt, "blocksize"},
		{"blocksize > nbytes", mod(func(c []byte) []byte { return put(c, 8, 8192) }), ErrCorrupt, "blocksize"},
		{"cbytes < header", mod(func(c []byte) []byte { return put(c, 12, 20) }), ErrCorrupt, "header"},
		{"bstart before data", mod(func(c []byte) []byte { return put(c, 32, 4) }), ErrCorrupt, "starts at"},
		{"bstart past chunk", mod(func(c []byte) []byte { return put(c, 36, uint32(len(c))) }), ErrCorrupt, "starts at"},
		{"csize past chunk", mod(func(c []byte) []byte {
			return put(c, int(binary.LittleEndian.Uint32(c[32:])), 1<<30)
		}), ErrCorrupt, "past the chunk"},
		{"run < -255", mod(func(c []byte) []byte {
			return put(c, int(binary.LittleEndian.Uint32(c[32:])), uint32(0xFFFFFF00))
		}), ErrCorrupt, "run"},
		{"unknown filter", mod(func(c []byte) []byte { c[16] = 36; return c }), ErrUnsupported, "filter id 36"},
		{"codec plugin", mod(func(c []byte) []byte { c[2] = c[2]&31 | 6<<5; c[22] = 40; return c }), ErrUnsupported, "plugin id 40"},
		{"codec format 2", mod(func(c []byte) []byte { c[2] = c[2]&31 | 2<<5; return c }), ErrUnsupported, "codec format 2"},
		{"vl blocks", mod(func(c []byte) []byte { c[30] = 1; return c }), ErrUnsupported, "variable-length"},
		{"lazy", mod(func(c []byte) []byte { c[31] = 8; return c }), ErrUnsupported, "lazy"},
		{"special kind 5", mod(func(c []byte) []byte { c[31] = 5 << 4; return c }), ErrUnsupported, "kind 5"},
		{"nan typesize 2", mod(func(c []byte) []byte { c[3] = 2; c[31] = 2 << 4; return c }), ErrCorrupt, "NaN"},
		{"value width", mod(func(c []byte) []byte { c[31] = 3 << 4; return c }), ErrCorrupt, "value bytes"},
		{"memcpyed sizes", mod(func(c []byte) []byte { c[2] |= flagMemcpyed; return c }), ErrCorrupt, "memcpyed"},
		{"codec mismatch", mod(func(c []byte) []byte { c[2] = c[2]&31 | codecLZ4<<5; return c }), ErrCorrupt, "lz4"},
	}
	for _, tt := range tests {
		out := make([]byte, len(data))
		err := Decode(out, tt.chunk)
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.words) {
			t.Errorf("%s: error %v, want %v containing %q", tt.name, err, tt.want, tt.words)
		}
	}
	if err := Decode(make([]byte, 10), good); !errors.Is(err, ErrCorrupt) {
		t.Errorf("wrong output size: %v", err)
	}
}

// TestDecodeBombs: a zstd or zlib stream inflating far past its stream
// size is refused after filling the block, not decoded into memory.
func TestDecodeBombs(t *testing.T) {
	for _, codec := range []uint8{codecZstd, codecZlib} {
		big := compress(t, codec, make([]byte, 64<<20))
		// One block of 1024 bytes, one stream, whose data is the bomb.
		c := buildChunk(t, chunkSpec{typesize: 1, blocksize: 1024, codec: codec}, bytes.Repeat([]byte{1, 2, 3}, 342)[:1024])
		c = append(c[:extHeaderLen+4], binary.LittleEndian.AppendUint32(nil, uint32(len(big)))...)
		c = append(c, big...)
		binary.LittleEndian.PutUint32(c[12:], uint32(len(c)))
		err := Decode(make([]byte, 1024), c)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "longer than 1024") {
			t.Errorf("%s bomb: %v", codecName(codec), err)
		}
	}
}

// TestDecodeZstdHugeWindow: a small zstd stream whose frame declares a
// 512 MiB window decodes without allocating anything like the window.
func TestDecodeZstdHugeWindow(t *testing.T) {
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b, zstd.WithWindowSize(zstd.MaxWindowSize), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("blosc"), 400)[:1024]
	w.Write(data)
	w.Close()
	// Declare a 2^29-byte window (Window_Descriptor exponent 19) in a
	// frame without the single-segment flag.
	frame := b.Bytes()
	if frame[4]&(1<<5) != 0 {
		t.Fatalf("test frame is single-segment: %#x", frame[4])
	}
	frame[5] = 19 << 3
	var zh zstd.Header
	if err := zh.Decode(frame); err != nil || zh.WindowSize != 1<<29 {
		t.Fatalf("test frame window %d, %v", zh.WindowSize, err)
	}
	c := buildChunk(t, chunkSpec{typesize: 1, blocksize: 1024, codec: codecZstd}, data)
	c = append(c[:extHeaderLen+4], binary.LittleEndian.AppendUint32(nil, uint32(b.Len()))...)
	c = append(c, b.Bytes()...)
	binary.LittleEndian.PutUint32(c[12:], uint32(len(c)))
	out := make([]byte, 1024)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := Decode(out, c); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if !bytes.Equal(out, data) {
		t.Fatal("decoded bytes differ")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("decoding allocated %d bytes", grew)
	}
}

// TestDecodeBlosc1Header: a 16-byte header takes its filters from the flag
// bits (shuffle, bitshuffle, delta) and its block starts follow at 16.
func TestDecodeBlosc1Header(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	data := smooth(r, 3000, 4)
	for _, tt := range []struct {
		name    string
		flags   uint8
		filters [6]uint8
	}{
		{"shuffle", flagShuffle, [6]uint8{5: filterShuffle}},
		{"bitshuffle", flagBitshuffle, [6]uint8{5: filterBitshuffle}},
		{"delta+shuffle", flagShuffle | flagDelta, [6]uint8{4: filterDelta, 5: filterShuffle}},
		{"none", 0, [6]uint8{}},
	} {
		ext := buildChunk(t, chunkSpec{typesize: 4, blocksize: 1024, codec: codecLZ4, filters: tt.filters}, data)
		nblocks := (len(data) + 1023) / 1024
		c := append(bytes.Clone(ext[:16]), ext[extHeaderLen:]...)
		c[2] = tt.flags | codecLZ4<<5
		for j := 0; j < nblocks; j++ {
			at := 16 + 4*j
			binary.LittleEndian.PutUint32(c[at:], binary.LittleEndian.Uint32(c[at:])-16)
		}
		binary.LittleEndian.PutUint32(c[12:], uint32(len(c)))
		h, err := ParseHeader(c)
		if err != nil || h.HeaderSize != 16 || h.Filters != tt.filters {
			t.Fatalf("%s: header %+v, %v", tt.name, h, err)
		}
		out := make([]byte, len(data))
		if err := Decode(out, c); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("%s: %v, equal %v", tt.name, err, bytes.Equal(out, data))
		}
	}
}

// TestDecodeKeepsCallerCapacity checks that Decode and DecodeBlock write
// nothing past len(dst), although a stream decoder may use the blocks not
// yet decoded as slack: the caller's bytes in cap(dst) stay untouched.
func TestDecodeKeepsCallerCapacity(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, p := range []struct {
		name    string
		filters [6]uint8
	}{
		{"none", [6]uint8{}},
		{"delta", [6]uint8{0: filterDelta}},
		{"shuffle", [6]uint8{0: filterShuffle}},
		{"shuffle+bitshuffle", [6]uint8{0: filterShuffle, 5: filterBitshuffle}},
	} {
		for _, codec := range []uint8{codecZstd, codecLZ4} {
			name := fmt.Sprintf("%s/%s", codecName(codec), p.name)
			data := smooth(r, 4*5000, 4)
			s := chunkSpec{typesize: 4, blocksize: 4 * 1024, codec: codec, filters: p.filters}
			chunk := buildChunk(t, s, data)
			big := bytes.Repeat([]byte{0xAB}, len(data)+64)
			if err := Decode(big[:len(data)], chunk); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !bytes.Equal(big[:len(data)], data) {
				t.Fatalf("%s: decoded bytes differ", name)
			}
			if bytes.Count(big[len(data):], []byte{0xAB}) != 64 {
				t.Fatalf("%s: Decode wrote past len(dst)", name)
			}
			for j := 0; j*s.blocksize < len(data); j++ {
				off := j * s.blocksize
				n := min(s.blocksize, len(data)-off)
				blk := bytes.Repeat([]byte{0xAB}, n+64)
				if err := DecodeBlock(blk[:n], chunk, j, data[:s.blocksize]); err != nil {
					t.Fatalf("%s: block %d: %v", name, j, err)
				}
				if !bytes.Equal(blk[:n], data[off:off+n]) {
					t.Fatalf("%s: block %d differs", name, j)
				}
				if bytes.Count(blk[n:], []byte{0xAB}) != 64 {
					t.Fatalf("%s: DecodeBlock %d wrote past len(dst)", name, j)
				}
			}
		}
	}
}
