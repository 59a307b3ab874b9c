package tetcore_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/tetsql/tetsql/tetcore"
)

// addTestdataSeeds adds every .tet under the module's and the package's
// testdata directories.
func addTestdataSeeds(f *testing.F) {
	n := 0
	for _, root := range []string{filepath.Join("..", "testdata"), "testdata"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".tet") {
				if b, err := os.ReadFile(path); err == nil {
					f.Add(b)
					n++
				}
			}
			return nil
		})
	}
	if n < 4 {
		f.Fatalf("only %d testdata seeds", n)
	}
}

// FuzzOpen parses arbitrary bytes. Errors must wrap a sentinel and name
// where they happened; a file that opens must survive reading every
// chunk and a deep Verify, and its index must describe itself coherently.
func FuzzOpen(f *testing.F) {
	addTestdataSeeds(f)
	for _, meta := range []bool{true, false} {
		s := buildSample(f, meta)
		f.Add(s.data)
		f.Add(s.data[:min(len(s.data), s.payloadEnd+10)])
	}
	f.Add([]byte("TETR\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x20\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 128<<10 {
			return // the largest seed is 69 KB; bigger inputs only slow minimizing
		}
		file, err := tetcore.Parse(data, tetcore.WithMaxChunkBytes(1<<16))
		if err != nil {
			if !isSentinel(err) || !hasContext(err) {
				t.Fatalf("error without sentinel or context: %v", err)
			}
			return
		}
		defer file.Close()
		st := file.FooterStatus()
		if (st == "absent") == file.HasFooter() || st != "absent" && st != "ok" && !strings.HasPrefix(st, "damaged: ") {
			t.Fatalf("footer status %q with flag %v", st, file.HasFooter())
		}
		for _, ds := range file.Datasets {
			if int64(len(ds.Chunks())) > ds.ChunkCount() || ds.Rank() < 1 || ds.Rank() > 8 || !ds.DType.Valid() {
				t.Fatalf("dataset %q: %d chunks of %d, rank %d, %v", ds.Name, len(ds.Chunks()), ds.ChunkCount(), ds.Rank(), ds.DType)
			}
			if len(ds.DimNames) != 0 && len(ds.DimNames) != ds.Rank() || ds.Labels != nil && len(ds.Labels) != ds.Rank() {
				t.Fatalf("dataset %q: dim names %v labels %d", ds.Name, ds.DimNames, len(ds.Labels))
			}
			var start, extent [8]int64
			for _, c := range ds.Chunks() {
				n := ds.ChunkStart(c.Coords[:ds.Rank()], start[:ds.Rank()], extent[:ds.Rank()])
				if c.RawLen != n*int64(ds.DType.Size()) || c.Offset+uint64(c.StoredLen) > uint64(len(data)) ||
					c.Codec == tetcore.CodecRaw && c.StoredLen != c.RawLen {
					t.Fatalf("dataset %q chunk %+v: %d elements", ds.Name, c, n)
				}
			}
		}
		readEverything(t, file)
	})
}

// The fixed file around FuzzReadChunk's entry: one f32 dataset "x" of
// shape [40, 30] in chunks of [32, 32] (chunk [0 0] is 3840 bytes, the
// edge chunk [1 0] 960), index entry 0 fuzzed, entry 1 a valid raw chunk.
const (
	frcIndex   = 40 + 16 + 8 + 32 // superblock, blob_len, record ("x" + padding), shape
	frcEntries = frcIndex + 32
	frcPayload = frcEntries + 2*104
)

func frcFile(payload []byte, codec uint32, coord0 uint64, rawDelta, storedDelta, offsetDelta int64, reserved uint32) []byte {
	le := binary.LittleEndian
	b := make([]byte, frcPayload, frcPayload+len(payload)+960)
	copy(b, "TETR")
	le.PutUint32(b[4:], 1)
	le.PutUint32(b[8:], 1)
	le.PutUint64(b[16:], frcIndex)
	le.PutUint64(b[24:], 32+2*104)
	le.PutUint64(b[32:], frcIndex-40)
	le.PutUint32(b[40:], 1)
	le.PutUint32(b[44:], uint32(tetcore.F32))
	le.PutUint32(b[48:], 2)
	b[56] = 'x'
	for i, v := range []uint64{40, 30, 32, 32} {
		le.PutUint64(b[64+8*i:], v)
	}
	copy(b[frcIndex:], "TIDX")
	le.PutUint32(b[frcIndex+4:], 1)
	le.PutUint64(b[frcIndex+8:], 2)
	raw := int64(3840)
	if coord0 == 1 {
		raw = 960
	}
	e := b[frcEntries:]
	le.PutUint64(e[8:], coord0)
	le.PutUint64(e[72:], uint64(frcPayload+offsetDelta))
	le.PutUint64(e[80:], uint64(raw+rawDelta))
	le.PutUint64(e[88:], uint64(int64(len(payload))+storedDelta))
	le.PutUint32(e[96:], codec)
	le.PutUint32(e[100:], reserved)
	e = b[frcEntries+104:]
	le.PutUint64(e[8:], 1)
	le.PutUint64(e[72:], uint64(frcPayload+len(payload)))
	le.PutUint64(e[80:], 960)
	le.PutUint64(e[88:], 960)
	b = append(b, payload...)
	for i := 0; i < 240; i++ {
		b = le.AppendUint32(b, math.Float32bits(float32(i)))
	}
	return b
}

var refDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<20))

// FuzzReadChunk fuzzes one chunk's payload and index entry inside a fixed
// valid file, and compares ReadChunk with a separate zstd decoder.
func FuzzReadChunk(f *testing.F) {
	field := smoothField(32, 30, 1)
	f.Add(field, uint32(0), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(encodeAll(field), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(encodeStream(field), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(encodeAll(field[:960]), uint32(1), uint64(1), int64(0), int64(0), int64(0), uint32(0))
	f.Add(encodeAll(field[:959]), uint32(1), uint64(1), int64(0), int64(0), int64(0), uint32(0))
	f.Add(encodeAll(append(field, 0)), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(rleFrame(0, 2), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(rleFrame(3840, 1), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(encodeAll(field), uint32(1), uint64(0), int64(0), int64(-1), int64(1), uint32(0))
	f.Add([]byte("garbage garbage garbage"), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	// Frames checked before the chunk's buffer is allocated: a declared
	// size other than raw_byte_len, blocks that cannot add up to it, a
	// huge window without a declared size.
	f.Add(rleFrame(3841, 1), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(rleFrame(1<<40, 1), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(append(rleFrame(3840, 0), make([]byte, 64)...), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(windowFrame(31, 1), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Add(windowFrame(12, 1), uint32(1), uint64(0), int64(0), int64(0), int64(0), uint32(0))
	f.Fuzz(func(t *testing.T, payload []byte, codec uint32, coord0 uint64, rawDelta, storedDelta, offsetDelta int64, reserved uint32) {
		data := frcFile(payload, codec, coord0, rawDelta, storedDelta, offsetDelta, reserved)
		file, err := tetcore.Parse(data, tetcore.WithMaxChunkBytes(1<<16))
		if err != nil {
			if !isSentinel(err) || !hasContext(err) {
				t.Fatalf("error without sentinel or context: %v", err)
			}
			return
		}
		ds := file.Datasets[0]
		for i := range ds.Chunks() {
			c := &ds.Chunks()[i]
			stored := data[c.Offset : c.Offset+uint64(c.StoredLen)]
			out, err := file.ReadChunk(ds, c, nil)
			switch {
			case err == nil:
				if int64(len(out)) != c.RawLen {
					t.Fatalf("chunk %v: %d bytes, want %d", c.Coords[:2], len(out), c.RawLen)
				}
				if c.Codec == tetcore.CodecRaw && !bytes.Equal(out, stored) {
					t.Fatalf("raw chunk differs from its payload")
				}
				if c.Codec == tetcore.CodecZstd {
					if ref, rerr := refDecoder.DecodeAll(stored, nil); rerr != nil || !bytes.Equal(ref, out) {
						t.Fatalf("zstd chunk: tetcore decoded %d bytes, reference %d (%v)", len(out), len(ref), rerr)
					}
				}
			case errors.Is(err, tetcore.ErrDecode):
				if ref, rerr := refDecoder.DecodeAll(stored, nil); rerr == nil && int64(len(ref)) == c.RawLen {
					t.Fatalf("tetcore failed (%v) where the reference decoded %d bytes", err, len(ref))
				}
			case errors.Is(err, tetcore.ErrTooLarge):
				if c.RawLen <= 1<<16 {
					t.Fatalf("ErrTooLarge for %d bytes", c.RawLen)
				}
			default:
				t.Fatalf("ReadChunk: %v", err)
			}
			if err != nil && !strings.Contains(err.Error(), `dataset "x" chunk [`) {
				t.Fatalf("error without context: %v", err)
			}
		}
	})
}
