package tetcore_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// hugeChunkFile returns a file of one u8 dataset whose single chunk
// declares rawLen bytes (shape and chunk shape [rawLen]) and stores frame:
// a tiny file whose index asks a reader for a huge buffer.
func hugeChunkFile(t testing.TB, rawLen int64, frame []byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "h.tet")
	spec := tetcore.DatasetSpec{Name: "h", DType: tetcore.U8, Shape: []int64{64}, ChunkShape: []int64{64}, Codec: tetcore.CodecZstd}
	writeFile(t, path, []genDataset{{spec, make([]byte, 64)}}, nil)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	if le.Uint32(b[12:])&1 != 0 {
		t.Fatal("sample has a footer: the payload cannot move to EOF")
	}
	rec := 40 // the only directory record
	shapeAt := rec + (16+int(le.Uint32(b[rec:]))+7)&^7
	le.PutUint64(b[shapeAt:], uint64(rawLen))   // shape[0]
	le.PutUint64(b[shapeAt+8:], uint64(rawLen)) // chunk_shape[0]
	e := int(le.Uint64(b[16:])) + 32            // the only index entry
	le.PutUint64(b[e+72:], uint64(len(b)))
	le.PutUint64(b[e+80:], uint64(rawLen))
	le.PutUint64(b[e+88:], uint64(len(frame)))
	return append(b, frame...)
}

// windowFrame is a frame without a content size declaring a 2^wlog-byte
// window, followed by blocks RLE blocks of 128 KiB.
func windowFrame(wlog byte, blocks int) []byte {
	f := rleFrame(0, blocks)
	f[5] = (wlog - 10) << 3
	return f
}

// TestReadChunk_smallFrameHugeChunk: a few bytes of zstd in a chunk that
// declares 512 MiB must be refused before the 512 MiB buffer is made,
// whatever the frame claims; a frame that really decodes to a large
// chunk still reads.
func TestReadChunk_smallFrameHugeChunk(t *testing.T) {
	const huge = 512 << 20
	// Parse already refuses payloads too short to reach raw_byte_len at
	// 128 KiB per 4-byte block; these are long enough (padded with
	// bytes after the frame's last block), yet cannot decode to it.
	pad := func(b []byte) []byte { return append(b, make([]byte, huge/(128<<10)*4+64-len(b))...) }
	cases := map[string][]byte{
		"garbage":                            pad([]byte("not a zstd frame")),
		"small frame, FCS 64":                pad(encodeAll(repetitive(64))),
		"no FCS, 1 MiB of blocks":            pad(rleFrame(0, 8)),
		"FCS says 512 MiB, 1 MiB of blocks":  pad(rleFrame(huge, 8)),
		"no FCS, 2 GiB window, 1 MiB blocks": pad(windowFrame(31, 8)),
	}
	for name, frame := range cases {
		f, err := tetcore.Parse(hugeChunkFile(t, huge, frame), tetcore.WithMaxChunkBytes(1<<30)) // above the default: the frame checks must refuse it
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ds := f.Datasets[0]
		c := &ds.Chunks()[0]
		if c.RawLen != huge {
			t.Fatalf("raw_byte_len %d", c.RawLen)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = f.ReadChunk(ds, c, nil)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, tetcore.ErrDecode) {
			t.Errorf("%s: %v, want ErrDecode", name, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("%s: %d bytes allocated to refuse a %d-byte frame", name, n, len(frame))
		}
		t.Logf("%s: %v", name, err)
	}
	// A real 1 MiB chunk of 8 RLE blocks, with and without FCS: accepted.
	for _, frame := range [][]byte{rleFrame(1<<20, 8), rleFrame(0, 8)} {
		f, err := tetcore.Parse(hugeChunkFile(t, 1<<20, frame))
		if err != nil {
			t.Fatal(err)
		}
		out, err := f.ReadChunk(f.Datasets[0], &f.Datasets[0].Chunks()[0], nil)
		if err != nil || !bytes.Equal(out, bytes.Repeat([]byte{'x'}, 1<<20)) {
			t.Errorf("1 MiB RLE chunk: %d bytes, %v", len(out), err)
		}
	}
}
