package blosc

import (
	"encoding/binary"
	"fmt"
	"math"
)

// MaxChunks bounds the number of chunks a frame may declare. The index is
// decoded into memory (8 bytes per chunk), and a special index chunk can
// claim any count in a few bytes, so the count is capped before anything
// is allocated.
const MaxChunks = 1 << 24

// ChunkKind says how a chunk of a frame is stored.
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

// ChunkRef locates one chunk of a frame.
type ChunkRef struct {
	Kind ChunkKind
	// Offset and Size give the chunk's bytes [Offset, Offset+Size) in the
	// frame, for a stored chunk of a contiguous frame. In a sparse frame
	// Offset is the chunk's file number instead and Size the file's size.
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
// stored size must fit in avail bytes (avail <= len(b) except for a chunk
// file, of which only the header was read).
func readChunkHeader(b []byte, avail int64) (chunkHeader, error) {
	var ch chunkHeader
	if avail < 16 || len(b) < 16 {
		return ch, fmt.Errorf("chunk header needs 16 bytes, %d available: %w", avail, ErrCorrupt)
	}
	ch.flags, ch.typesize = b[2], int64(b[3])
	ch.nbytes = int64(int32(binary.LittleEndian.Uint32(b[4:])))
	ch.cbytes = int64(int32(binary.LittleEndian.Uint32(b[12:])))
	hlen := int64(16)
	if ch.flags&5 == 5 {
		hlen = 32
	}
	switch {
	case ch.nbytes < 0:
		return ch, fmt.Errorf("chunk nbytes %d: %w", ch.nbytes, ErrCorrupt)
	case ch.cbytes < hlen || ch.cbytes > avail:
		return ch, fmt.Errorf("chunk cbytes %d outside [%d, %d available]: %w", ch.cbytes, hlen, avail, ErrCorrupt)
	}
	return ch, nil
}

// readIndex decodes the index chunk at dataEnd (it must end by
// trailerStart) and fills f.Chunks, checking each stored chunk. The index
// must hold exactly the ceil(nbytes / chunksize) chunks the header implies.
func (f *Frame) readIndex(h frameHeader, dataEnd, trailerStart int64) error {
	var want int64
	if f.NBytes > 0 {
		want = f.NBytes/f.ChunkSize + min(f.NBytes%f.ChunkSize, 1)
	} else if trailerStart == dataEnd {
		return nil // an empty frame: no chunks, no index chunk
	}
	if want > MaxChunks {
		// Before any 8·want: nbytes near 2^63 in chunks of one byte would
		// overflow it and pass the size checks below.
		return fmt.Errorf("blosc: nbytes %d in chunks of %d make %d chunks, above the limit of %d: %w",
			f.NBytes, f.ChunkSize, want, MaxChunks, ErrCorrupt)
	}
	if trailerStart-dataEnd < 16 {
		return fmt.Errorf("blosc: index chunk missing at %d (trailer at %d): %w", dataEnd, trailerStart, ErrCorrupt)
	}
	// The index holds 8 bytes per chunk. A declared size within MaxChunks
	// that does not match is corrupt; a larger one is refused as too large
	// (by decodeSmall) before allocating it.
	idx := f.data[dataEnd:trailerStart]
	if ch, err := readChunkHeader(idx, int64(len(idx))); err == nil && ch.nbytes != 8*want && ch.nbytes <= 8*MaxChunks {
		return fmt.Errorf("blosc: index chunk of %d bytes, but nbytes %d in chunks of chunksize %d make %d chunks: %w",
			ch.nbytes, f.NBytes, f.ChunkSize, want, ErrCorrupt)
	}
	raw, err := decodeSmall(idx, 8*min(want, MaxChunks))
	if err != nil {
		return fmt.Errorf("blosc: index chunk at %d: %w", dataEnd, err)
	}
	if int64(len(raw)) != 8*want { // the checks above make this impossible
		return fmt.Errorf("blosc: index chunk of %d bytes for %d chunks: %w", len(raw), want, ErrCorrupt)
	}
	f.Chunks = make([]ChunkRef, want)
	for i := range f.Chunks {
		off := int64(binary.LittleEndian.Uint64(raw[8*i:]))
		if f.Chunks[i], err = f.chunkRef(h, i, off, dataEnd); err != nil {
			return fmt.Errorf("blosc: chunk %d: %w", i, err)
		}
	}
	return nil
}

// ChunkLen is the decoded size of chunk i: ChunkSize, except for a last
// chunk holding the rest of NBytes.
func (f *Frame) ChunkLen(i int) int64 {
	return min(f.ChunkSize, f.NBytes-int64(i)*f.ChunkSize)
}

// specialKinds maps the top byte of a special index entry to its kind.
var specialKinds = map[byte]ChunkKind{0x81: ChunkZeros, 0x82: ChunkNaN, 0x84: ChunkUninit}

// chunkRef checks index entry i and turns it into a ChunkRef.
func (f *Frame) chunkRef(h frameHeader, i int, off, dataEnd int64) (ChunkRef, error) {
	if off < 0 {
		top := byte(uint64(off) >> 56)
		k, ok := specialKinds[top]
		if !ok {
			return ChunkRef{}, fmt.Errorf("special offset 0x%016x: unknown kind 0x%02x: %w", uint64(off), top, ErrCorrupt)
		}
		if k == ChunkNaN && f.Typesize != 4 && f.Typesize != 8 {
			return ChunkRef{}, fmt.Errorf("NaN chunk of typesize %d: %w", f.Typesize, ErrCorrupt)
		}
		return ChunkRef{Kind: k}, nil
	}
	if f.Sparse {
		if off > math.MaxUint32 {
			return ChunkRef{}, fmt.Errorf("chunk file number %d above 8 hex digits: %w", off, ErrCorrupt)
		}
		return ChunkRef{Kind: ChunkStored, Offset: off}, nil
	}
	if off > dataEnd-h.headerLen-16 {
		return ChunkRef{}, fmt.Errorf("offset %d past the data section of %d bytes: %w", off, dataEnd-h.headerLen, ErrCorrupt)
	}
	start := h.headerLen + off
	ch, err := f.checkDataChunk(i, f.data[start:dataEnd], dataEnd-start)
	if err != nil {
		return ChunkRef{}, fmt.Errorf("at %d: %w", start, err)
	}
	return ChunkRef{Kind: ChunkStored, Offset: start, Size: ch.cbytes}, nil
}

// checkDataChunk checks that the data chunk i at the start of b fits in
// avail bytes and decodes to ChunkLen(i) bytes of the frame's typesize.
func (f *Frame) checkDataChunk(i int, b []byte, avail int64) (chunkHeader, error) {
	ch, err := readChunkHeader(b, avail)
	if err != nil {
		return ch, err
	}
	switch {
	case ch.nbytes != f.ChunkLen(i):
		return ch, fmt.Errorf("chunk nbytes %d, frame chunksize %d (this chunk: %d): %w", ch.nbytes, f.ChunkSize, f.ChunkLen(i), ErrCorrupt)
	case ch.typesize != f.Typesize:
		return ch, fmt.Errorf("chunk typesize %d, frame typesize %d: %w", ch.typesize, f.Typesize, ErrCorrupt)
	}
	return ch, nil
}

// ChunkBytes returns the stored bytes of chunk i of a contiguous frame
// (a view of the frame, not a copy), or nil for a special chunk.
func (f *Frame) ChunkBytes(i int) ([]byte, error) {
	if i < 0 || i >= len(f.Chunks) {
		return nil, fmt.Errorf("blosc: chunk %d outside [0, %d): %w", i, len(f.Chunks), ErrNoChunk)
	}
	c := f.Chunks[i]
	if c.Kind != ChunkStored {
		return nil, nil
	}
	if f.Sparse {
		return nil, fmt.Errorf("blosc: chunk %d of a sparse frame lives in a file (use ReadChunk): %w", i, ErrUnsupported)
	}
	return f.data[c.Offset : c.Offset+c.Size], nil
}
