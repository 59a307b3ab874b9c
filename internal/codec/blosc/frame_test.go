package blosc

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
)

// fixtureDir finds the .b2nd fixtures with their expected.json: the
// B2ND_FIXTURES environment variable, the b2nd package's testdata, or the
// shared fixture directory of the development machine. "" when none is
// there (the tests then skip).
func fixtureDir() string {
	for _, d := range []string{os.Getenv("B2ND_FIXTURES"), "../../../b2nd/testdata", "/work/shared/fixtures/b2nd"} {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "expected.json")); err == nil {
			return d
		}
	}
	return ""
}

// frameChunk is one chunk of a frame as the test-only frame walker found
// it: either the raw chunk bytes or a special offset kind.
type frameChunk struct {
	raw     []byte // chunk bytes (may run past the chunk's end)
	special byte   // 0x81 zeros, 0x82 NaN, 0x84 uninitialised; 0 for raw
}

// testFrame is the little of a Blosc2 frame the chunk tests need.
type testFrame struct {
	typesize, chunksize int
	chunks              []frameChunk
}

// readTestFrame walks a contiguous frame file or a sparse frame directory
// (spec §2.1, §2.3, §3) far enough to hand out its data chunks. It is a
// test helper, not a frame parser: it trusts the fixtures' layout but
// still fails cleanly on short input.
func readTestFrame(path string) (*testFrame, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	sparse := st.IsDir()
	name := path
	if sparse {
		name = filepath.Join(path, "chunks.b2frame")
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if len(b) < 87 || string(b[2:10]) != "b2frame\x00" {
		return nil, fmt.Errorf("%s: not a frame", name)
	}
	be := binary.BigEndian
	hlen := int64(be.Uint32(b[11:]))
	nbytes := int64(be.Uint64(b[30:]))
	cbytes := int64(be.Uint64(b[39:]))
	f := &testFrame{typesize: int(be.Uint32(b[48:])), chunksize: int(be.Uint32(b[58:]))}
	if f.chunksize <= 0 || nbytes == 0 {
		return f, nil
	}
	nchunks := (nbytes + int64(f.chunksize) - 1) / int64(f.chunksize)
	idxPos := hlen + cbytes
	if sparse {
		idxPos = hlen
	}
	if idxPos >= int64(len(b)) {
		return nil, fmt.Errorf("%s: index chunk at %d past the end", name, idxPos)
	}
	ih, err := ParseHeader(b[idxPos:])
	if err != nil {
		return nil, fmt.Errorf("index chunk: %w", err)
	}
	idx := make([]byte, ih.NBytes)
	if err := Decode(idx, b[idxPos:]); err != nil {
		return nil, fmt.Errorf("index chunk: %w", err)
	}
	if int64(len(idx)) < 8*nchunks {
		return nil, fmt.Errorf("index chunk of %d bytes for %d chunks", len(idx), nchunks)
	}
	for i := int64(0); i < nchunks; i++ {
		off := int64(binary.LittleEndian.Uint64(idx[8*i:]))
		switch {
		case off < 0:
			f.chunks = append(f.chunks, frameChunk{special: byte(uint64(off) >> 56)})
		case sparse:
			raw, err := os.ReadFile(filepath.Join(path, fmt.Sprintf("%08X.chunk", off)))
			if err != nil {
				return nil, err
			}
			f.chunks = append(f.chunks, frameChunk{raw: raw})
		default:
			if hlen+off >= idxPos {
				return nil, fmt.Errorf("chunk %d offset %d past the data", i, off)
			}
			f.chunks = append(f.chunks, frameChunk{raw: b[hlen+off : idxPos]})
		}
	}
	return f, nil
}

// decodeChunk decodes chunk c of f into a new chunksize buffer.
func (f *testFrame) decodeChunk(c frameChunk) ([]byte, error) {
	out := make([]byte, f.chunksize)
	switch c.special {
	case 0:
		return out, Decode(out, c.raw)
	case 0x81, 0x84:
		return out, nil
	case 0x82:
		fillNaN(out, f.typesize)
		return out, nil
	}
	return nil, fmt.Errorf("special offset kind %#x", c.special)
}
