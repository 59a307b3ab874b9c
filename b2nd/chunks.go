package b2nd

import (
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
)

// MaxChunks bounds the number of chunks a frame may declare. The index is
// decoded into memory (8 bytes per chunk), and a special index chunk can
// claim any count in a few bytes, so the count is capped before anything
// is allocated.
const MaxChunks = 1 << 24

// ChunkKind says how a chunk is stored.
type ChunkKind uint8

// The chunk kinds. Special kinds store no bytes at all.
const (
	ChunkStored ChunkKind = iota // a Blosc2 chunk: decode its bytes
	ChunkZeros                   // every element zero
	ChunkNaN                     // every element a quiet NaN (f32/f64)
	ChunkUninit                  // uninitialised: read as zeros, values undefined
)

var kindNames = [...]string{ChunkStored: "stored", ChunkZeros: "zeros", ChunkNaN: "nan", ChunkUninit: "uninit"}

// String names the kind.
func (k ChunkKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("ChunkKind(%d)", uint8(k))
}

// ChunkRef locates one chunk of the grid.
type ChunkRef struct {
	Kind ChunkKind
	// Offset and Size give the chunk's bytes [Offset, Offset+Size) in the
	// frame, for a stored chunk of a contiguous frame. In a sparse frame
	// Offset is the chunk's file number instead and Size is 0 until the
	// file is read.
	Offset, Size int64
}

// chunkHeader is the part of a Blosc2 chunk header (§4.1) the frame
// parser checks: sizes and typesize.
type chunkHeader struct {
	flags    byte
	typesize int64
	nbytes   int64
	cbytes   int64
}

// readChunkHeader reads the header of the chunk at the start of b, whose
// stored size must fit in avail bytes (avail <= len(b)).
func readChunkHeader(b []byte, avail int64) (chunkHeader, error) {
	var ch chunkHeader
	if avail < 16 || len(b) < 16 {
		return ch, fmt.Errorf("chunk header needs 16 bytes, %d available: %w", avail, array.ErrCorrupt)
	}
	ch.flags, ch.typesize = b[2], int64(b[3])
	ch.nbytes, ch.cbytes = int64(le32(b[4:])), int64(le32(b[12:]))
	hlen := int64(16)
	if ch.flags&5 == 5 {
		hlen = 32
	}
	switch {
	case ch.nbytes < 0:
		return ch, fmt.Errorf("chunk nbytes %d: %w", ch.nbytes, array.ErrCorrupt)
	case ch.cbytes < hlen || ch.cbytes > avail:
		return ch, fmt.Errorf("chunk cbytes %d outside [%d, %d available]: %w", ch.cbytes, hlen, avail, array.ErrCorrupt)
	}
	return ch, nil
}

// readIndex decodes the index chunk at dataEnd (it must end by
// trailerStart) and fills f.Chunks, checking each stored chunk.
func (f *Frame) readIndex(h header, nchunks, dataEnd, trailerStart int64, decode DecodeFunc) error {
	if nchunks == 0 {
		return nil // no chunks, no index chunk
	}
	if nchunks > MaxChunks {
		return fmt.Errorf("b2nd: %d chunks, above the limit of %d: %w", nchunks, MaxChunks, array.ErrTooLarge)
	}
	if trailerStart-dataEnd < 16 {
		return fmt.Errorf("b2nd: index chunk missing at %d (trailer at %d): %w", dataEnd, trailerStart, array.ErrCorrupt)
	}
	// The index holds exactly 8·nchunks bytes; a larger declared size is a
	// lie refused before allocating it.
	raw, err := decodeSmall(f.data[dataEnd:trailerStart], 8*nchunks, decode)
	if err != nil {
		return fmt.Errorf("b2nd: index chunk at %d: %w", dataEnd, err)
	}
	if int64(len(raw)) < 8*nchunks {
		return fmt.Errorf("b2nd: index chunk holds %d bytes, %d chunks need %d: %w", len(raw), nchunks, 8*nchunks, array.ErrCorrupt)
	}
	f.Chunks = make([]ChunkRef, nchunks)
	for i := range f.Chunks {
		off := le64(raw[8*i:])
		if f.Chunks[i], err = f.chunkRef(h, off, dataEnd); err != nil {
			return fmt.Errorf("b2nd: chunk %d: %w", i, err)
		}
	}
	return nil
}

// chunkRef checks one index entry and turns it into a ChunkRef.
func (f *Frame) chunkRef(h header, off, dataEnd int64) (ChunkRef, error) {
	if off < 0 {
		kinds := map[byte]ChunkKind{0x81: ChunkZeros, 0x82: ChunkNaN, 0x84: ChunkUninit}
		top := byte(uint64(off) >> 56)
		k, ok := kinds[top]
		if !ok {
			return ChunkRef{}, fmt.Errorf("special offset 0x%016x: unknown kind 0x%02x: %w", uint64(off), top, array.ErrCorrupt)
		}
		if k == ChunkNaN && f.Typesize != 4 && f.Typesize != 8 {
			return ChunkRef{}, fmt.Errorf("NaN chunk of typesize %d: %w", f.Typesize, array.ErrCorrupt)
		}
		return ChunkRef{Kind: k}, nil
	}
	if f.Sparse {
		if off > math.MaxUint32 {
			return ChunkRef{}, fmt.Errorf("chunk file number %d above 8 hex digits: %w", off, array.ErrCorrupt)
		}
		return ChunkRef{Kind: ChunkStored, Offset: off}, nil
	}
	if off > dataEnd-h.headerLen-16 {
		return ChunkRef{}, fmt.Errorf("offset %d past the data section of %d bytes: %w", off, dataEnd-h.headerLen, array.ErrCorrupt)
	}
	start := h.headerLen + off
	ch, err := f.checkDataChunk(f.data[start:dataEnd], dataEnd-start)
	if err != nil {
		return ChunkRef{}, fmt.Errorf("at %d: %w", start, err)
	}
	return ChunkRef{Kind: ChunkStored, Offset: start, Size: ch.cbytes}, nil
}

// checkDataChunk checks that the data chunk at the start of b fits in
// avail bytes and decodes to exactly one chunk of the frame's typesize.
func (f *Frame) checkDataChunk(b []byte, avail int64) (chunkHeader, error) {
	ch, err := readChunkHeader(b, avail)
	if err != nil {
		return ch, err
	}
	switch {
	case ch.nbytes != f.ChunkSize:
		return ch, fmt.Errorf("chunk nbytes %d, frame chunksize %d: %w", ch.nbytes, f.ChunkSize, array.ErrCorrupt)
	case ch.typesize != f.Typesize:
		return ch, fmt.Errorf("chunk typesize %d, frame typesize %d: %w", ch.typesize, f.Typesize, array.ErrCorrupt)
	}
	return ch, nil
}

// ChunkBytes returns the stored bytes of chunk i of a contiguous frame
// (a view of the frame, not a copy), or nil for a special chunk.
func (f *Frame) ChunkBytes(i int) ([]byte, error) {
	if i < 0 || i >= len(f.Chunks) {
		return nil, fmt.Errorf("b2nd: chunk %d outside [0, %d): %w", i, len(f.Chunks), array.ErrMissingChunk)
	}
	c := f.Chunks[i]
	if c.Kind != ChunkStored {
		return nil, nil
	}
	if f.Sparse {
		return nil, fmt.Errorf("b2nd: chunk %d of a sparse frame lives in a file (use ReadChunk): %w", i, array.ErrUnsupported)
	}
	return f.data[c.Offset : c.Offset+c.Size], nil
}
