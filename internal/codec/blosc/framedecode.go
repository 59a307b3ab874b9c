package blosc

import "fmt"

// DecodeFrame parses the contiguous frame in data and decodes all its
// chunks, in order, into one buffer of exactly the frame's nbytes: the
// content of a plain super-chunk. A frame decoding to more than limit
// bytes is refused (ErrTooLarge) before anything of that size is
// allocated. Special chunks (zeros, NaN, uninitialised) are filled as
// Decode fills special chunks. Frames of variable-length chunks
// (chunksize 0) are refused as ErrUnsupported by the parser.
func DecodeFrame(data []byte, limit int64) ([]byte, error) {
	// The header's nbytes first: a frame of a few KB can declare millions
	// of special chunks, whose index the parser would build first.
	h, _, err := parseFrameHeader(data)
	if err != nil {
		return nil, err
	}
	if h.nbytes > limit {
		return nil, fmt.Errorf("blosc: frame decodes to %d bytes, above the limit of %d: %w", h.nbytes, limit, ErrTooLarge)
	}
	f, err := ParseFrame(data)
	if err != nil {
		return nil, err
	}
	return f.Decode(limit)
}

// Decode decodes every chunk of f in order into one buffer of NBytes
// bytes; see DecodeFrame. Chunk i lands at i·ChunkSize.
func (f *Frame) Decode(limit int64) ([]byte, error) {
	if f.NBytes > limit {
		return nil, fmt.Errorf("blosc: frame decodes to %d bytes, above the limit of %d: %w", f.NBytes, limit, ErrTooLarge)
	}
	out := make([]byte, f.NBytes)
	for i, c := range f.Chunks {
		lo := int64(i) * f.ChunkSize
		dst := out[lo : lo+f.ChunkLen(i)]
		switch c.Kind {
		case ChunkZeros, ChunkUninit:
			// out is zeroed already.
		case ChunkNaN:
			fillNaN(dst, int(f.Typesize))
		default:
			src, err := f.ReadChunk(i)
			if err != nil {
				return nil, err
			}
			if err := Decode(dst, src); err != nil {
				return nil, fmt.Errorf("blosc: chunk %d: %w", i, err)
			}
		}
	}
	return out, nil
}
