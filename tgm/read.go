package tgm

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// Info describes the dataset.
func (d *Dataset) Info() *array.Info { return &d.info }

// Objects are the dataset's data objects, chunk id order (message order
// for a stacked dataset).
func (d *Dataset) Objects() []*Object { return d.objs }

// Chunk returns chunk id's index entry: the object's decoded and stored
// sizes, the offset of its data object frame, and the stages that stored
// it (Object.Codec). An empty object (an extent 0) has no chunk.
func (d *Dataset) Chunk(id int64) (array.ChunkInfo, bool) {
	if id < 0 || id >= d.info.ChunkCount() {
		return array.ChunkInfo{}, false
	}
	o := d.objs[id]
	raw := o.Elements() * int64(d.info.DType.Size())
	ci := array.ChunkInfo{
		ID:          id,
		RawBytes:    raw,
		StoredBytes: o.StoredBytes(),
		Offset:      o.FrameOffset,
		Codec:       o.Codec(),
	}
	// Decompressing and unshuffling each keep a buffer of the stored
	// stream (at most the output's size) beside the output.
	if o.Compression != "none" || o.Filter != "none" {
		ci.DecodeBytes = 3 * raw
	}
	return ci, true
}

// ReadChunk decodes chunk id, one data object, into dst (or a new buffer
// when dst is too small): little-endian elements of the dataset's dtype
// in C order, NaN / ±Inf restored from masks. The object's hash, when it
// has one, is verified first. An object above Options.MaxChunkBytes (or
// DefaultMaxObjectBytes) is refused with array.ErrTooLarge; an object
// stored with a compression, encoding or filter this reader lacks (szip,
// zfp, sz3, …) fails with an error naming it (array.ErrUnsupported),
// leaving the other chunks readable.
func (d *Dataset) ReadChunk(id int64, dst []byte) ([]byte, error) {
	if id < 0 || id >= d.info.ChunkCount() {
		return nil, fmt.Errorf("tgm: %s: chunk %d outside the grid of %d: %w", d.info.Name, id, d.info.ChunkCount(), array.ErrMissingChunk)
	}
	s := d.src
	if s.mf.Released() {
		return nil, fmt.Errorf("tgm: %s: %w", s.path, array.ErrClosed)
	}
	o := d.objs[id]
	var (
		out []byte
		err error
	)
	gerr := s.mf.Guard(func() { out, err = o.Decode(dst, s.limit) })
	if gerr != nil {
		return nil, gerr
	}
	if err != nil {
		return nil, fmt.Errorf("%s: chunk %d: %w", d.info.Name, id, err)
	}
	if want := o.Elements() * int64(d.info.DType.Size()); int64(len(out)) != want {
		return nil, fmt.Errorf("tgm: %s: chunk %d decoded to %d bytes, %d expected: %w", d.info.Name, id, len(out), want, array.ErrCorrupt)
	}
	return out, nil
}
