package scan

import (
	"cmp"
	"slices"
	"sync"

	"github.com/tetsql/tetsql/array"
)

// EvictFrom is the number of planned chunks from which a scan hands the
// pages of chunks it is done with back to the operating system, so that
// scanning a file larger than memory does not grow the resident set by
// the whole file. Smaller plans (point and slab queries, join lookups)
// keep their pages mapped for the next Filter call.
const EvictFrom = 16

// A large aggregate fold keeps the last DefaultEvictWindow bytes of
// chunks it has finished mapped, and hands older ones back to the
// operating system DefaultEvictBatch bytes or more at a time (see
// Registry.SetEvictWindow). The window keeps a file of up to
// that size mapped from one query to the next (no page faults when it is
// queried again); the batches turn one madvise — and one TLB shootdown
// on every core running the process — per chunk into one per several
// megabytes. Resident memory stays bounded by the window, whatever the
// file's size. The pages stay in the page cache either way.
const (
	DefaultEvictWindow = 64 << 20
	DefaultEvictBatch  = 8 << 20
)

// SetEvictWindow sets the bytes large folds of the registry's sources
// keep mapped and the least they hand back at once (0 keeps a value);
// folds already running keep theirs.
func (r *Registry) SetEvictWindow(window, batch uint64) {
	if window > 0 {
		r.evictWindow.Store(window)
	}
	if batch > 0 {
		r.evictBatch.Store(batch)
	}
}

// evictor collects the stored-byte spans of the chunks a fold has
// finished and evicts the oldest ones beyond the window. Safe for
// concurrent use; a nil *evictor does nothing.
type evictor struct {
	mu            sync.Mutex
	evict         func(lo, hi uint64) // array.Evicter.EvictRange
	window, batch uint64
	pend          []byteSpan // finished, in completion order
	held          uint64     // bytes in pend
}

// newEvictor returns the evictor of a large fold of src, or nil when src
// cannot evict.
func newEvictor(src *Source) *evictor {
	if src.ev == nil {
		return nil
	}
	return &evictor{evict: src.ev.EvictRange, window: src.reg.evictWindow.Load(), batch: src.reg.evictBatch.Load()}
}

type byteSpan struct{ lo, hi uint64 }

// done records that the fold no longer needs the chunk's stored bytes.
func (e *evictor) done(ci *array.ChunkInfo) {
	if e == nil || ci.Offset < 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	lo := uint64(ci.Offset)
	e.pend = append(e.pend, byteSpan{lo, lo + uint64(ci.StoredBytes)})
	e.held += uint64(ci.StoredBytes)
	if e.held < e.window+e.batch {
		return
	}
	k, freed := 0, uint64(0)
	for ; k < len(e.pend) && e.held-freed > e.window; k++ {
		freed += e.pend[k].hi - e.pend[k].lo
	}
	old := e.pend[:k]
	slices.SortFunc(old, func(a, b byteSpan) int { return cmp.Compare(a.lo, b.lo) })
	// Evict touching spans (payloads may be padded for alignment) as one
	// range, but do not bridge a wider gap: it may hold a chunk another
	// worker is still reading (dropping its pages would only cost page
	// faults, never correctness).
	const slack = 64
	run := old[0]
	for _, s := range old[1:] {
		if s.lo <= run.hi+slack {
			run.hi = max(run.hi, s.hi)
			continue
		}
		e.evict(run.lo, run.hi)
		run = s
	}
	e.evict(run.lo, run.hi)
	e.pend = append(e.pend[:0], e.pend[k:]...)
	e.held -= freed
}

// cellsEvictor is the eviction of a cells scan over a large plan: a
// decoded chunk's stored bytes as soon as it is decoded, an in-place
// chunk's once the scan moves to another chunk.
type cellsEvictor struct {
	src     *Source
	prevRaw *array.ChunkInfo // in-place chunk being read, evicted when left
	prev    array.ChunkInfo
}

// read records that the scan now reads chunk c of a plan of planned
// chunks.
func (e *cellsEvictor) read(c *Chunk, planned int64) {
	if planned < EvictFrom || e.src.ev == nil {
		return
	}
	ci := &c.Info
	if !ci.InPlace {
		e.src.evictChunk(ci)
	}
	if e.prevRaw != nil && e.prev.ID != ci.ID {
		e.src.evictChunk(e.prevRaw)
	}
	e.prevRaw = nil
	if ci.InPlace {
		e.prev = *ci
		e.prevRaw = &e.prev
	}
}
