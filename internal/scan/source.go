package scan

import (
	"fmt"
	"sync/atomic"

	"github.com/tetsql/tetsql/array"
)

// Source is one file as the engine holds it: the format's source, its
// optional capabilities, and the engine's per-file state (the
// decoded-chunk cache, per-array chunk statistics).
type Source struct {
	src    array.Source
	format array.Format
	reg    *Registry
	path   string // absolute
	given  string // as the first opener gave it
	arrays []*Array

	pin   array.Pinner        // nil when the format does not pin
	guard array.Guarder       // nil when chunk bytes cannot fault
	check array.ChangeChecker // nil when changes cannot be seen
	ev    array.Evicter       // nil when pages cannot be handed back

	cache atomic.Pointer[chunkCache] // nil until a budget is set
}

// Array is one array of a source, with the engine's state about it.
type Array struct {
	array.Array
	file   array.Array // the file's 0-d array when Array is its 1-d view, else nil
	src    *Source
	index  int
	stats  ChunkStats
	totals totals
}

func newSource(src array.Source, f array.Format, path, given string) *Source {
	s := &Source{src: src, format: f, path: path, given: given}
	s.pin, _ = src.(array.Pinner)
	s.guard, _ = src.(array.Guarder)
	s.check, _ = src.(array.ChangeChecker)
	s.ev, _ = src.(array.Evicter)
	for i, a := range src.Arrays() {
		sa := &Array{Array: a, src: s, index: i, stats: ChunkStats{m: map[int64]ChunkStat{}}}
		if v, ok := promoteScalar(a); ok {
			sa.Array, sa.file = v, a
		}
		s.arrays = append(s.arrays, sa)
	}
	return s
}

// Format is the format that opened the source.
func (s *Source) Format() array.Format { return s.format }

// Underlying is the format's own source, for the capabilities only the
// metadata tables use (array.Describer, array.Historian, …).
func (s *Source) Underlying() array.Source { return s.src }

// Path is the absolute path the source was opened by.
func (s *Source) Path() string { return s.path }

// GivenPath is the path as the first opener of the source gave it
// (relative or not); the file metadata table shows it.
func (s *Source) GivenPath() string { return s.given }

// Attrs is the file-level attributes (nil when none); do not modify.
func (s *Source) Attrs() map[string]string { return s.src.Attrs() }

// Arrays lists the source's arrays in the file's order.
func (s *Source) Arrays() []*Array { return s.arrays }

// Array returns the first array named name (compared byte for byte), or
// an error wrapping array.ErrNotFound.
func (s *Source) Array(name string) (*Array, error) {
	for _, a := range s.arrays {
		if a.Info().Name == name {
			return a, nil
		}
	}
	return nil, fmt.Errorf("tet: dataset %q: %w", name, array.ErrNotFound)
}

// ArrayAt returns the array at position i of the file's list.
func (s *Source) ArrayAt(i int) (*Array, error) {
	if i < 0 || i >= len(s.arrays) {
		return nil, fmt.Errorf("tet: dataset_id %d: the file has %d datasets: %w", i, len(s.arrays), array.ErrNotFound)
	}
	return s.arrays[i], nil
}

// Acquire pins the source for a reader: it fails once the source is
// closed or changed on disk (array.Pinner). For a format that does not
// pin, it checks for changes only.
func (s *Source) Acquire() error {
	if s.pin != nil {
		return s.pin.Acquire()
	}
	return s.CheckUnchanged()
}

// Release undoes one Acquire.
func (s *Source) Release() {
	if s.pin != nil {
		s.pin.Release()
	}
}

// CheckUnchanged returns an error wrapping array.ErrChanged when the
// file changed on disk since it was opened (nil when the format cannot
// tell).
func (s *Source) CheckUnchanged() error {
	if s.check != nil {
		return s.check.CheckUnchanged()
	}
	return nil
}

// Guard runs read, which may read in-place chunk bytes, turning a fault
// of a file that shrank under it into an error (array.Guarder); without
// a guarder it just runs read.
func (s *Source) Guard(read func()) error {
	if s.guard != nil {
		return s.guard.Guard(read)
	}
	read()
	return nil
}

// Copy copies in-place chunk bytes src to dst under Guard.
func (s *Source) Copy(dst, src []byte) (int, error) {
	if s.guard != nil {
		return s.guard.Copy(dst, src)
	}
	return copy(dst, src), nil
}

// evictChunk evicts the stored bytes of one chunk.
func (s *Source) evictChunk(ci *array.ChunkInfo) {
	if s.ev != nil && ci.Offset >= 0 {
		s.ev.EvictRange(uint64(ci.Offset), uint64(ci.Offset)+uint64(ci.StoredBytes))
	}
}

// SetCacheBudget gives the source a decoded-chunk cache of at least n
// bytes (the largest budget asked for wins; 0 asks for nothing). The
// cache is shared by every table reading the source and lives as long
// as the source is open.
func (s *Source) SetCacheBudget(n int64) {
	if n <= 0 {
		return
	}
	c := s.cache.Load()
	if c == nil {
		s.cache.CompareAndSwap(nil, newChunkCache())
		c = s.cache.Load()
	}
	c.grow(n)
}

func (s *Source) close() error {
	s.cache.Store(nil)
	for _, a := range s.arrays {
		a.stats.reset()
	}
	return s.src.Close()
}

// Source is the source the array belongs to.
func (a *Array) Source() *Source { return a.src }

// Index is the array's position in its file's list.
func (a *Array) Index() int { return a.index }

// Stats is the statistics of the array's chunks that aggregates folded
// whole.
func (a *Array) Stats() *ChunkStats { return &a.stats }
