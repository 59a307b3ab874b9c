package scan

import (
	"sync"

	"github.com/tetsql/tetsql/array"
)

// ChunkLister is an optional capability of an array.Array: it lists the
// chunks its file stores, in id order, without walking the grid (a
// sparse grid may declare far more positions than the file stores).
// Without it, listing walks every grid position.
type ChunkLister interface {
	StoredChunks(yield func(array.ChunkInfo) bool)
}

// EachStored calls fn with every chunk the file stores, in id order,
// until fn returns false.
func (a *Array) EachStored(fn func(array.ChunkInfo) bool) {
	if l, ok := a.Array.(ChunkLister); ok {
		l.StoredChunks(fn)
		return
	}
	n := a.Info().ChunkCount()
	for id := int64(0); id < n; id++ {
		if c, ok := a.Chunk(id); ok && !fn(c) {
			return
		}
	}
}

// Totals are the counts over the chunks a file stores for one array.
type Totals struct {
	Chunks      int64 // chunks stored
	RawBytes    int64 // their decoded bytes
	StoredBytes int64 // their stored bytes
}

// totals caches Totals per array (computed on first use).
type totals struct {
	once sync.Once
	t    Totals
}

// Totals counts the stored chunks and their bytes (once per array).
func (a *Array) Totals() Totals {
	a.totals.once.Do(func() {
		a.EachStored(func(c array.ChunkInfo) bool {
			a.totals.t.Chunks++
			a.totals.t.RawBytes += c.RawBytes
			a.totals.t.StoredBytes += c.StoredBytes
			return true
		})
	})
	return a.totals.t
}
