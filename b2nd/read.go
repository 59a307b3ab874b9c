package b2nd

import (
	"errors"
	"fmt"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// Info describes the array.
func (a *Array) Info() *array.Info { return &a.info }

// Chunk returns chunk id's index entry. Every grid position is in the
// index (special chunks included), so ok is false only outside the grid.
func (a *Array) Chunk(id int64) (array.ChunkInfo, bool) {
	f := a.src.frame
	if id < 0 || id >= int64(len(f.Chunks)) {
		return array.ChunkInfo{}, false
	}
	var start, extent [array.MaxRank]int64
	r := a.info.Rank()
	n := a.info.ChunkBox(id, start[:r], extent[:r])
	c := f.Chunks[id]
	ci := array.ChunkInfo{ID: id, RawBytes: n * f.Typesize, StoredBytes: c.Size, Offset: -1, Codec: chunkKinds[a.kinds[id]]}
	if c.Kind == blosc.ChunkStored {
		if !f.Sparse {
			ci.Offset = c.Offset
		}
		if f.ChunkSize > ci.RawBytes {
			ci.DecodeBytes = f.ChunkSize // decoded with its padding
		}
	}
	return ci, true
}

// ReadChunk decodes chunk id into dst (or a new buffer when dst is too
// small) as little-endian elements, row-major over the chunk's
// edge-trimmed box. A chunk that is one block covering its whole box is
// decoded straight into dst; otherwise the decoded blocks go through a
// pooled buffer and are copied into place, padding left out. Memcpyed
// chunks are copied from the mapped file without a decoding step.
func (a *Array) ReadChunk(id int64, dst []byte) ([]byte, error) {
	f := a.src.frame
	if id < 0 || id >= int64(len(f.Chunks)) {
		return nil, fmt.Errorf("b2nd: %s: chunk %d outside the grid of %d: %w", a.info.Name, id, len(f.Chunks), array.ErrMissingChunk)
	}
	if a.src.mf.Released() {
		return nil, fmt.Errorf("b2nd: %s: %w", a.src.path, array.ErrClosed)
	}
	if lim := a.src.limit; lim > 0 && f.ChunkSize > lim {
		return nil, fmt.Errorf("b2nd: %s: chunk %d decodes to %d bytes, above the limit of %d: %w", a.info.Name, id, f.ChunkSize, lim, array.ErrTooLarge)
	}
	var start, extent [array.MaxRank]int64
	r := a.info.Rank()
	n := a.info.ChunkBox(id, start[:r], extent[:r]) * f.Typesize
	// A chunk whose box comes first in its decoded bytes (inOrder) is
	// decoded straight into the result, which then needs room for the
	// whole decoded chunk.
	room := n
	if f.Chunks[id].Kind == blosc.ChunkStored && a.geo.inOrder(extent[:r]) {
		room = f.ChunkSize
	}
	out := dst[:0]
	if int64(cap(dst)) < room {
		out = make([]byte, room)
	}
	out = out[:room]
	if err := a.decode(id, out, n, extent[:r]); err != nil {
		return nil, fmt.Errorf("b2nd: %s: chunk %d: %w", a.info.Name, id, err)
	}
	out = out[:n]
	return out, nil
}

// decode fills out[:n], the box of chunk id of the given extent; out is
// longer (the whole decoded chunk) when the box is in order (inOrder).
func (a *Array) decode(id int64, out []byte, n int64, extent []int64) error {
	switch a.src.frame.Chunks[id].Kind {
	case blosc.ChunkZeros, blosc.ChunkUninit:
		clear(out[:n])
		return nil
	case blosc.ChunkNaN:
		a.fillNaN(out[:n])
		return nil
	}
	return a.withStored(id, func(src []byte) error { return a.decodeStored(out, n, src, extent) })
}

// withStored calls read with the stored bytes of chunk id: a view of the
// mapping, read under its guard, or a sparse frame's chunk file.
func (a *Array) withStored(id int64, read func(src []byte) error) error {
	f := a.src.frame
	if f.Sparse {
		src, err := f.ReadChunk(int(id))
		if err != nil {
			return wrapCodec(err)
		}
		return read(src)
	}
	var err error
	gerr := a.src.mf.Guard(func() {
		var src []byte
		if src, err = f.ReadChunk(int(id)); err != nil {
			err = wrapCodec(err)
			return
		}
		err = read(src)
	})
	if gerr != nil {
		return gerr
	}
	return err
}

// header reads and checks the header of the stored chunk src: it must
// decode to one chunk of the frame.
func (a *Array) header(src []byte) (blosc.Header, error) {
	f := a.src.frame
	h, err := blosc.ParseHeader(src)
	if err != nil {
		return h, wrapCodec(err)
	}
	if h.NBytes != f.ChunkSize || int64(h.TypeSize) != f.Typesize {
		return h, fmt.Errorf("chunk of %d bytes of typesize %d, the frame says %d of %d: %w", h.NBytes, h.TypeSize, f.ChunkSize, f.Typesize, array.ErrCorrupt)
	}
	return h, nil
}

// decodeStored decodes the Blosc2 chunk src into out[:n] (see decode).
func (a *Array) decodeStored(out []byte, n int64, src []byte, extent []int64) error {
	f := a.src.frame
	h, err := a.header(src)
	if err != nil {
		return err
	}
	inOrder := int64(len(out)) == f.ChunkSize && a.geo.inOrder(extent)
	whole := out
	out = out[:n]
	switch {
	case h.Special == blosc.SpecialNaN:
		a.fillNaN(out)
		return nil
	case h.Special == blosc.SpecialZeros || h.Special == blosc.SpecialUninit:
		clear(out)
		return nil
	case inOrder:
		if err := blosc.Decode(whole, src); err != nil {
			return wrapCodec(err)
		}
	case h.Memcpyed:
		a.geo.reorder(out, src[h.HeaderSize:int64(h.HeaderSize)+h.NBytes], extent)
	default:
		bp := a.scratch.Get().(*[]byte)
		defer a.scratch.Put(bp)
		if err := blosc.Decode(*bp, src); err != nil {
			return wrapCodec(err)
		}
		a.geo.reorder(out, *bp, extent)
	}
	if f.BigEndian {
		swapBytes(out, f.Typesize)
	}
	return nil
}

// fillNaN fills b with NaN elements as the reference library reads a NaN
// chunk. C-Blosc2 writes a NaN chunk in the machine's byte order whatever
// the array's, so in a big-endian array the reference library (and
// python-blosc2) reads back the swapped bytes, a tiny subnormal, not
// NaN; this reader swaps them the same way, so both give the same values.
func (a *Array) fillNaN(b []byte) {
	f := a.src.frame
	blosc.FillNaN(b, int(f.Typesize))
	if f.BigEndian {
		swapBytes(b, f.Typesize)
	}
}

// codecSentinels pairs each sentinel of the codec package with the array
// sentinel it means.
var codecSentinels = [...][2]error{
	{blosc.ErrCorrupt, array.ErrCorrupt},
	{blosc.ErrTruncated, array.ErrTruncated},
	{blosc.ErrUnsupported, array.ErrUnsupported},
	{blosc.ErrTooLarge, array.ErrTooLarge},
	{blosc.ErrNotRegular, array.ErrNotRegular},
	{blosc.ErrChanged, array.ErrChanged},
	{blosc.ErrNoChunk, array.ErrMissingChunk},
}

// wrapCodec adds the array sentinels matching a codec error, so callers
// test errors with package array's sentinels alone. The message stays the
// codec's.
func wrapCodec(err error) error {
	if err == nil {
		return nil
	}
	var add []error
	for _, p := range codecSentinels {
		if errors.Is(err, p[0]) && !errors.Is(err, p[1]) {
			add = append(add, p[1])
		}
	}
	if len(add) == 0 {
		return err
	}
	return &codecError{err: err, sentinels: add}
}

// codecError is a codec error that also matches array sentinels.
type codecError struct {
	err       error
	sentinels []error
}

func (e *codecError) Error() string   { return e.err.Error() }
func (e *codecError) Unwrap() []error { return append([]error{e.err}, e.sentinels...) }
