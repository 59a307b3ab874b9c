package scan

import (
	"sync"

	"github.com/tetsql/tetsql/array"
)

// walkCheck is how many grid positions a walk steps between two checks
// of the call's context.
const walkCheck = 1 << 16

// EachStored calls fn with every chunk the file stores, in id order,
// until fn returns false: through array.ChunkLister when the array has
// it, else by walking the grid. A walk of the grid stops early, with the
// context's error, once the current call of sess (may be nil) is done.
func (a *Array) EachStored(sess *Session, fn func(array.ChunkInfo) bool) error {
	if l, ok := a.Array.(array.ChunkLister); ok {
		l.StoredChunks(fn)
		return nil
	}
	n := a.Info().ChunkCount()
	for id := int64(0); id < n; id++ {
		if id%walkCheck == walkCheck-1 {
			if err := sess.Interrupted(); err != nil {
				return err
			}
		}
		if c, ok := a.Chunk(id); ok && !fn(c) {
			return nil
		}
	}
	return nil
}

// Totals are the counts over the chunks a file stores for one array.
type Totals struct {
	Chunks      int64 // chunks stored
	RawBytes    int64 // their decoded bytes
	StoredBytes int64 // their stored bytes
}

// totals caches an array's Totals once a count completed.
type totals struct {
	mu   sync.Mutex
	done bool
	t    Totals
}

// Totals counts the stored chunks and their bytes; the first complete
// count is kept. It fails (see EachStored) only when a walk of the grid
// is interrupted.
func (a *Array) Totals(sess *Session) (Totals, error) {
	a.totals.mu.Lock()
	t, done := a.totals.t, a.totals.done
	a.totals.mu.Unlock()
	if done {
		return t, nil
	}
	t = Totals{}
	err := a.EachStored(sess, func(c array.ChunkInfo) bool {
		t.Chunks++
		t.RawBytes += c.RawBytes
		t.StoredBytes += c.StoredBytes
		return true
	})
	if err != nil {
		return Totals{}, err
	}
	a.totals.mu.Lock()
	a.totals.t, a.totals.done = t, true
	a.totals.mu.Unlock()
	return t, nil
}
