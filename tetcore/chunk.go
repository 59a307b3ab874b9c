package tetcore

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/zstd"
)

var (
	decoderOnce sync.Once
	decoder     *zstd.Decoder
	decoderErr  error
)

// decodeSlack is the capacity ReadChunk gives a decoded chunk beyond its
// raw length (the zstd decoder's fast copies need 16 bytes).
const decodeSlack = 64

// sharedDecoder is one zstd decoder for the process. DecodeAll is safe for
// concurrent use; the cap limit makes it refuse to grow the output past
// the capacity we hand it (the declared raw_byte_len).
func sharedDecoder() (*zstd.Decoder, error) {
	decoderOnce.Do(func() {
		decoder, decoderErr = zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(0),
			zstd.WithDecodeAllCapLimit(true),
			zstd.WithDecoderMaxMemory(1<<40))
	})
	return decoder, decoderErr
}

// Stored returns the chunk's stored bytes, a view of the file's data.
func (f *File) Stored(c *Chunk) ([]byte, error) {
	if f.isClosed() {
		return nil, ErrClosed
	}
	end := c.Offset + uint64(c.StoredLen)
	return f.data[c.Offset:end:end], nil // capped: appending must not write into the file
}

// ReadChunk returns the decoded bytes of chunk c of ds. A raw chunk is
// returned as a zero-copy view of the file's data (buf is unused); a zstd
// chunk is decoded into buf, which is replaced if it is a view of the file
// (such as a raw chunk returned earlier) or if its capacity is below the
// chunk's raw length, and the returned slice aliases it. The result must
// not be modified, and is valid until the file is closed (or buf reused).
//
// The decode reads the mapping under Guard. A raw view is not read here:
// whoever reads it must use Guard or Copy, or fault if the file shrinks.
func (f *File) ReadChunk(ds *Dataset, c *Chunk, buf []byte) ([]byte, error) {
	out, err := f.readChunk(ds, c, buf)
	if errors.Is(err, ErrDecode) {
		// Bytes that fail to decode may be a file rewritten under its
		// mapping: say so, rather than blame the file's contents.
		if cerr := f.CheckUnchanged(); cerr != nil {
			return nil, fmt.Errorf("tetcore: dataset %q chunk %v: %w", ds.Name, c.Coords[:ds.Rank()], cerr)
		}
	}
	return out, err
}

func (f *File) readChunk(ds *Dataset, c *Chunk, buf []byte) ([]byte, error) {
	src, err := f.Stored(c)
	if err != nil {
		return nil, err
	}
	if c.Codec == CodecRaw {
		return src, nil
	}
	if c.RawLen > f.opts.maxChunkBytes {
		return nil, fmt.Errorf("tetcore: dataset %q chunk %v: %d bytes: %w", ds.Name, c.Coords[:ds.Rank()], c.RawLen, ErrTooLarge)
	}
	dec, err := sharedDecoder()
	if err != nil {
		return nil, err
	}
	// The output gets decodeSlack bytes of capacity past raw_byte_len:
	// with that slack the decoder copies in 16-byte blocks through the
	// last zstd block too, instead of switching to its bounds-exact copies
	// (which cost about a third more). A frame decoding to more than
	// raw_byte_len is refused below either way.
	limit := c.RawLen + decodeSlack
	var out []byte
	var bad error
	gerr := f.Guard(func() {
		if bad = checkFrame(src, c.RawLen); bad != nil {
			return // before allocating raw_byte_len
		}
		if int64(cap(buf)) < limit || overlaps(buf, f.data) {
			buf = make([]byte, 0, limit)
		}
		out, err = dec.DecodeAll(src, buf[:0:limit])
	})
	if gerr != nil {
		return nil, fmt.Errorf("tetcore: dataset %q chunk %v: %w", ds.Name, c.Coords[:ds.Rank()], gerr)
	}
	if bad != nil {
		return nil, fmt.Errorf("tetcore: dataset %q chunk %v: %v: %w", ds.Name, c.Coords[:ds.Rank()], bad, ErrDecode)
	}
	if err != nil {
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
			err = fmt.Errorf("frame decodes past raw_byte_len %d", c.RawLen)
		}
		return nil, fmt.Errorf("tetcore: dataset %q chunk %v: %v: %w", ds.Name, c.Coords[:ds.Rank()], err, ErrDecode)
	}
	if int64(len(out)) != c.RawLen {
		return nil, fmt.Errorf("tetcore: dataset %q chunk %v: decoded %d bytes, want raw_byte_len %d: %w", ds.Name, c.Coords[:ds.Rank()], len(out), c.RawLen, ErrDecode)
	}
	return out, nil
}

// overlaps reports whether buf's backing array lies in data, as when a raw
// chunk's view is passed back as buf: decoding into it would write into
// the file's bytes (a read-only mapping: a fatal fault).
func overlaps(buf, data []byte) bool {
	if cap(buf) == 0 || len(data) == 0 {
		return false
	}
	b := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	d := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return b < d+uintptr(len(data)) && d < b+uintptr(cap(buf))
}

// ReadChunkAt is ReadChunk by grid position; a position without an index
// entry fails with ErrMissingChunk.
func (f *File) ReadChunkAt(ds *Dataset, linear int64, buf []byte) ([]byte, error) {
	c, ok := ds.Chunk(linear)
	if !ok {
		coords := make([]int64, ds.Rank())
		if linear >= 0 && linear < ds.gridCount {
			ds.ChunkCoords(linear, coords)
		}
		return nil, fmt.Errorf("tetcore: dataset %q chunk %v: %w", ds.Name, coords, ErrMissingChunk)
	}
	return f.ReadChunk(ds, c, buf)
}
