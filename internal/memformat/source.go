package memformat

import (
	"fmt"
	"sync/atomic"

	"github.com/tetsql/tetsql/array"
)

var (
	_ array.Source        = (*source)(nil)
	_ array.Array         = (*memArray)(nil)
	_ array.TableProvider = (*source)(nil)
)

// source is a parsed file: arrays and their chunks, all in memory.
type source struct {
	attrs  map[string]string
	arrays []array.Array
	tables []array.Table // the "tables" section
	closed atomic.Bool
}

func (s *source) Arrays() []array.Array    { return s.arrays }
func (s *source) Attrs() map[string]string { return s.attrs }

// Close marks the source closed; reads fail with ErrClosed afterwards.
func (s *source) Close() error {
	s.closed.Store(true)
	return nil
}

// memArray is one array; chunks[id] holds the chunk's elements, already
// cut out of the values and edge-trimmed (nil for a missing chunk).
type memArray struct {
	src      *source
	info     array.Info
	chunks   [][]byte
	maxBytes int64 // array.Options.MaxChunkBytes, 0 = none
}

func (a *memArray) Info() *array.Info { return &a.info }

func (a *memArray) Chunk(id int64) (array.ChunkInfo, bool) {
	if id < 0 || id >= int64(len(a.chunks)) || a.chunks[id] == nil {
		return array.ChunkInfo{}, false
	}
	n := int64(len(a.chunks[id]))
	return array.ChunkInfo{ID: id, RawBytes: n, StoredBytes: n, Offset: -1, Codec: "memory"}, true
}

// ReadChunk copies the chunk into dst (or a new buffer when dst is too
// small): never a view, so callers may pass any earlier result back.
func (a *memArray) ReadChunk(id int64, dst []byte) ([]byte, error) {
	if _, ok := a.Chunk(id); !ok {
		return nil, fmt.Errorf("memformat: array %q chunk %d: %w", a.info.Name, id, array.ErrMissingChunk)
	}
	if a.src.closed.Load() {
		return nil, fmt.Errorf("memformat: array %q: %w", a.info.Name, array.ErrClosed)
	}
	c := a.chunks[id]
	if a.maxBytes > 0 && int64(len(c)) > a.maxBytes {
		return nil, fmt.Errorf("memformat: array %q chunk %d: %d bytes: %w", a.info.Name, id, len(c), array.ErrTooLarge)
	}
	if cap(dst) < len(c) {
		dst = make([]byte, len(c))
	}
	dst = dst[:len(c)]
	copy(dst, c)
	return dst, nil
}
