package tetcore_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/tetsql/tetsql/tetcore"
)

// zstdEntry is the sample's f32 chunk [0 0]: zstd, 4×4 f32 = 64 bytes.
const zstdEntry = 9

// withPayload appends payload to the sample (built without a footer, so
// the payload region ends at EOF) and points index entry i at it as zstd.
func withPayload(s *sample, i int, payload []byte) []byte {
	b := append(s.clone(), payload...)
	e := s.entry(i)
	binary.LittleEndian.PutUint64(b[e+72:], uint64(len(s.data)))
	binary.LittleEndian.PutUint64(b[e+88:], uint64(len(payload)))
	binary.LittleEndian.PutUint32(b[e+96:], uint32(tetcore.CodecZstd))
	return b
}

func encodeAll(src []byte) []byte {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		panic(err)
	}
	defer enc.Close()
	return enc.EncodeAll(src, nil)
}

// encodeStream writes a frame without a content-size field.
func encodeStream(src []byte) []byte {
	var buf bytes.Buffer
	enc, err := zstd.NewWriter(&buf)
	if err != nil {
		panic(err)
	}
	enc.Write(src)
	enc.Close()
	return buf.Bytes()
}

// rleFrame hand-builds a frame of blocks RLE blocks of 128 KiB each, with
// a frame content size field of fcs (or none when fcs is 0).
func rleFrame(fcs uint64, blocks int) []byte {
	b := []byte{0x28, 0xb5, 0x2f, 0xfd}
	if fcs != 0 {
		b = append(b, 0xe0) // 8-byte FCS, single segment
		b = binary.LittleEndian.AppendUint64(b, fcs)
	} else {
		b = append(b, 0x00, 7<<3) // no FCS; window 2^17
	}
	for i := 0; i < blocks; i++ {
		h := uint32(128<<10)<<3 | 1<<1
		if i == blocks-1 {
			h |= 1
		}
		b = append(b, byte(h), byte(h>>8), byte(h>>16), 'x')
	}
	return b
}

// repetitive is n bytes that compress well.
func repetitive(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 61)
	}
	return b
}

func badFrames() map[string][]byte {
	valid := encodeAll(repetitive(64))
	badSum := bytes.Clone(valid)
	badSum[len(badSum)-1] ^= 0xff
	skippable := []byte{0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4}
	return map[string][]byte{
		"garbage":            []byte("this is not a zstd frame at all!"),
		"magic then garbage": append([]byte{0x28, 0xb5, 0x2f, 0xfd}, bytes.Repeat([]byte{0xff}, 20)...),
		"trailing garbage":   append(bytes.Clone(valid), 1, 2, 3, 4, 5, 6, 7, 8, 9),
		"bad checksum":       badSum,
		"cut frame":          valid[:len(valid)-5],
		"skippable only":     skippable,
		"larger with FCS":    encodeAll(repetitive(4 << 20)),
		"larger without FCS": encodeStream(repetitive(4 << 20)),
		"one byte too many":  encodeAll(repetitive(65)),
		// ReadChunk decodes with 64 bytes of capacity to spare: frames
		// that overrun into it, or just past it, are refused all the same.
		"16 bytes too many":   encodeStream(repetitive(80)),
		"64 bytes too many":   encodeAll(repetitive(128)),
		"65 bytes too many":   encodeAll(repetitive(129)),
		"RLE, FCS 2^40":       rleFrame(1<<40, 8),
		"RLE, no FCS, 1 MiB":  rleFrame(0, 8),
		"one byte too few":    encodeAll(repetitive(63)),
		"empty frame":         encodeAll(nil),
		"smaller without FCS": encodeStream(repetitive(32)),
	}
}

// TestReadChunk_badZstd: every bad frame fails with ErrDecode naming the
// dataset and chunk; the file still opens and other chunks read.
func TestReadChunk_badZstd(t *testing.T) {
	t.Parallel()
	s := buildSample(t, false)
	for name, frame := range badFrames() {
		t.Run(name, func(t *testing.T) {
			f, err := tetcore.Parse(withPayload(s, zstdEntry, frame))
			if err != nil {
				t.Fatal(err)
			}
			ds := f.Datasets[1]
			c := &ds.Chunks()[0]
			if c.RawLen != 64 || c.Codec != tetcore.CodecZstd {
				t.Fatalf("chunk %+v", c)
			}
			out, err := f.ReadChunk(ds, c, make([]byte, 0, 1<<20))
			if !errors.Is(err, tetcore.ErrDecode) || out != nil {
				t.Fatalf("ReadChunk = %d bytes, %v; want ErrDecode", len(out), err)
			}
			if m := err.Error(); !strings.Contains(m, `dataset "f32" chunk [0 0]`) {
				t.Errorf("error lacks context: %v", m)
			}
			if _, err := f.ReadChunk(ds, &ds.Chunks()[1], nil); err != nil {
				t.Errorf("neighbouring chunk: %v", err)
			}
			rep, err := f.VerifyReport(tetcore.VerifyDeep)
			if err != nil || rep.OK() || rep.DecodedChunks != s.entries-1 || len(rep.Findings) != 1 ||
				rep.Findings[0].Dataset != "f32" || len(rep.Findings[0].Chunk) != 2 {
				t.Errorf("verify: %v %+v", err, rep)
			}
		})
	}
}

// TestReadChunk_overlongFrameAllocation: a frame that would decode to far
// more than raw_byte_len must be stopped near raw_byte_len, not decoded
// (or allocated) in full. Not parallel, so the heap counters are ours.
func TestReadChunk_overlongFrameAllocation(t *testing.T) {
	s := buildSample(t, false)
	frames := badFrames()
	for _, name := range []string{"larger with FCS", "larger without FCS", "RLE, FCS 2^40", "RLE, no FCS, 1 MiB"} {
		f, err := tetcore.Parse(withPayload(s, zstdEntry, frames[name]))
		if err != nil {
			t.Fatal(err)
		}
		ds := f.Datasets[1]
		c := &ds.Chunks()[0]
		buf := make([]byte, 0, c.RawLen)
		const runs = 20
		for range 3 { // warm the shared decoder up
			f.ReadChunk(ds, c, buf)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			if _, err := f.ReadChunk(ds, c, buf); !errors.Is(err, tetcore.ErrDecode) {
				t.Fatalf("%s: %v", name, err)
			}
		}
		runtime.ReadMemStats(&after)
		perOp := (after.TotalAlloc - before.TotalAlloc) / runs
		// One 128 KiB block may be decoded before the overrun is seen;
		// the full frame is 1–4 MiB (or claims 1 TiB).
		if perOp > 512<<10 {
			t.Errorf("%s: %d bytes allocated per ReadChunk of a 64-byte chunk", name, perOp)
		}
		t.Logf("%s: %d B/op", name, perOp)
	}
}

// TestReadChunk_limits covers WithMaxChunkBytes, missing chunks, and
// that a raw view cannot be appended to in place.
func TestReadChunk_limits(t *testing.T) {
	t.Parallel()
	s := buildSample(t, false)
	if _, err := tetcore.Parse(s.data, tetcore.WithMaxChunkBytes(0)); err == nil {
		t.Error("WithMaxChunkBytes(0) accepted")
	}
	f, err := tetcore.Parse(s.data, tetcore.WithMaxChunkBytes(63))
	if err != nil {
		t.Fatal(err)
	}
	ds := f.Datasets[1]
	if _, err := f.ReadChunk(ds, &ds.Chunks()[0], nil); !errors.Is(err, tetcore.ErrTooLarge) || !strings.Contains(err.Error(), `"f32" chunk [0 0]`) {
		t.Errorf("64-byte chunk with a 63-byte limit: %v", err)
	}
	if out, err := f.ReadChunk(ds, &ds.Chunks()[1], nil); err != nil || len(out) != 16 {
		t.Errorf("16-byte chunk: %d %v", len(out), err)
	}
	if _, err := f.ReadChunkAt(ds, 4, nil); !errors.Is(err, tetcore.ErrMissingChunk) {
		t.Errorf("chunk 4 of 4: %v", err)
	}
	if _, err := f.ReadChunkAt(ds, -1, nil); !errors.Is(err, tetcore.ErrMissingChunk) {
		t.Errorf("chunk -1: %v", err)
	}
	if _, err := f.Dataset("nope"); !errors.Is(err, tetcore.ErrNotFound) {
		t.Errorf("Dataset(nope): %v", err)
	}
	u8 := f.Datasets[0]
	raw, err := f.ReadChunk(u8, &u8.Chunks()[0], nil)
	if err != nil || cap(raw) != len(raw) {
		t.Fatalf("raw view: len %d cap %d, %v", len(raw), cap(raw), err)
	}
	_ = append(raw, 0xee)
	if out, _ := f.ReadChunk(u8, &u8.Chunks()[1], nil); out[0] == 0xee {
		t.Error("append to a raw chunk wrote into the next payload")
	}
}

// TestReadChunk_sparseIndex drops the last index entry: the file opens,
// the position reports ErrMissingChunk and Verify finds the gap.
func TestReadChunk_sparseIndex(t *testing.T) {
	t.Parallel()
	s := buildSample(t, false)
	b := s.clone()
	le := binary.LittleEndian
	le.PutUint64(b[s.index+8:], uint64(s.entries-1))
	le.PutUint64(b[24:], uint64(32+104*(s.entries-1)))
	f, err := tetcore.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	ds := f.Datasets[3]
	if len(ds.Chunks()) != 3 || ds.ChunkCount() != 4 {
		t.Fatalf("%d of %d chunks", len(ds.Chunks()), ds.ChunkCount())
	}
	if _, err := f.ReadChunkAt(ds, 3, nil); !errors.Is(err, tetcore.ErrMissingChunk) || !strings.Contains(err.Error(), "[1 1 0]") {
		t.Errorf("missing chunk: %v", err)
	}
	if out, err := f.ReadChunkAt(ds, 2, nil); err != nil || len(out) != 1*3*2*2 {
		t.Errorf("present chunk: %d %v", len(out), err)
	}
	rep, err := f.VerifyReport(tetcore.VerifyQuick)
	if err != nil || rep.OK() || !strings.Contains(rep.Findings[0].String(), `dataset "half/f16" 1 of 4 chunks absent`) {
		t.Errorf("verify: %v %+v", err, rep)
	}
}
