package scan

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
)

// Parallel reads of a TopK. The first pass reads every chunk that has
// no statistics yet (all of them, the first time a dataset without zone
// maps is asked): the decodes and the statistics run on several
// goroutines, a batch of chunks at a time; the heap is then fed on the
// calling goroutine in plan order. The bounded pass visits the chunks
// with statistics best bound first and stops once none can improve the
// heap: there a chunk to read brings along the next ones the heap, as it
// stands, does not rule out, decoded speculatively on other goroutines
// (a chunk the heap rules out by the time its turn comes is skipped as
// before, its decode wasted). Either way the rows and the counters are
// those of a serial pass.

// topSlot is one chunk of a batch, read on a worker goroutine.
type topSlot struct {
	buf   []byte // decode buffer, reused across batches
	ch    Chunk
	stats fold.Stats
	err   error
	// The bounded pass's candidates (topk_prefilter.go): when filtered,
	// only cands of the chunk can enter the heap.
	cands    []topCand
	filtered bool
}

// firstPass reads t.first, a batch of the chunks without statistics
// (collected as the plan is walked, so that memory does not grow with
// the plan), offers their elements to the heap and empties t.first.
func (t *TopK) firstPass(r *Reader, sess *Session, st *ScanStats) error {
	if len(t.first) == 0 {
		return nil
	}
	defer func() { t.first = t.first[:0] }()
	par := t.parallelism(r, sess, t.first[0].id, len(t.first))
	if par <= 1 {
		for _, b := range t.first {
			if err := sess.Interrupted(); err != nil {
				return err
			}
			t.box = b
			if err := t.read(r, st, false); err != nil {
				return err
			}
		}
		return nil
	}
	if len(t.slots) < par {
		t.slots = append(t.slots, make([]topSlot, par-len(t.slots))...)
	}
	for i := 0; i < len(t.first); i += par {
		if err := sess.Interrupted(); err != nil {
			return err
		}
		batch := t.first[i:min(i+par, len(t.first))]
		var wg sync.WaitGroup
		for j := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t.slots[j].load(r, &batch[j], t.dt, t.rank, true)
			}()
		}
		wg.Wait()
		for j := range batch {
			s := &t.slots[j]
			if s.err != nil {
				return s.err
			}
			t.box = batch[j]
			folded := &s.stats
			if s.ch.Info.InPlace {
				folded = nil // not folded by load
			}
			if err := t.offerChunk(r, st, &s.ch, false, folded, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// parallelism is how many chunks a pass over n chunks, the first
// being first, reads at once: the session's decode goroutines
// (DecodeParallelism, or min(GOMAXPROCS, MaxAutoParallelism)), fewer
// when that many decoded chunks exceed ReadAheadBytes beyond the one a
// serial pass holds; 1 (serial) with read-ahead off, for in-place chunks
// (free to read, and read under the source's guard) and for one chunk.
func (t *TopK) parallelism(r *Reader, sess *Session, first int64, n int) int {
	if sess == nil || sess.ReadAhead < 0 || n < 2 {
		return 1
	}
	if ci, ok := r.a.Chunk(first); !ok || ci.InPlace {
		return 1
	}
	par := sess.DecodeParallelism
	if par <= 0 {
		par = min(runtime.GOMAXPROCS(0), MaxAutoParallelism)
	}
	budget := sess.ReadAheadBytes
	if budget <= 0 {
		budget = DefaultReadAheadBytes
	}
	in := r.a.Info()
	per := int64(in.DType.Size())
	for d, n := range in.ChunkShape {
		per *= min(n, in.Shape[d])
	}
	return int(min(int64(min(par, n)), 1+budget/max(per, 1)))
}

// readBounded reads and offers t.box, the chunk of t.order[i], in the
// bounded pass: from the slots when a batch brought it, else with a new
// batch of it and the next chunks of t.order not ruled out yet.
func (t *TopK) readBounded(r *Reader, sess *Session, plan *planner.Plan, st *ScanStats, i int) error {
	for k, p := range t.pre {
		if p == i {
			s := &t.slots[k]
			if s.err != nil {
				return s.err
			}
			return t.offerChunk(r, st, &s.ch, true, nil, s)
		}
	}
	par := t.parallelism(r, sess, t.box.id, len(t.order)-i)
	if par <= 1 {
		return t.read(r, st, true)
	}
	t.pre = append(t.pre[:0], i)
	for j := i + 1; j < len(t.order) && len(t.pre) < par; j++ {
		c := &t.order[j]
		if len(t.heap) == t.n && c.best > t.heap[0].k {
			break // sorted: none after can do better
		}
		if !t.excluded(c) {
			t.pre = append(t.pre, j)
		}
	}
	if len(t.slots) < len(t.pre) {
		t.slots = append(t.slots, make([]topSlot, len(t.pre)-len(t.slots))...)
	}
	boxes := make([]topBox, len(t.pre))
	boxes[0] = t.box
	in := r.a.Info()
	for k := 1; k < len(t.pre); k++ {
		t.boxOf(in, plan, t.order[t.pre[k]].id)
		boxes[k] = t.box
	}
	t.box = boxes[0]
	f := t.filter()
	var wg sync.WaitGroup
	for k := range boxes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &t.slots[k]
			s.load(r, &boxes[k], t.dt, t.rank, false)
			if s.err == nil && !s.ch.Info.InPlace {
				s.prefilter(t, &boxes[k], f)
			} else {
				s.filtered = false
			}
		}()
	}
	wg.Wait()
	return t.readBounded(r, sess, plan, st, i) // now in the slots
}

// load reads chunk b.id into s and, when stats, computes its statistics (not for an
// in-place chunk, a view of the file to be read under the source's
// guard). A panic on
// this goroutine would end the process whatever SQLite's thread
// recovers, so it becomes s.err, which the query then reports.
func (s *topSlot) load(r *Reader, b *topBox, dt array.DType, rank int, stats bool) {
	s.ch, s.err = Chunk{}, nil
	defer func() {
		if p := recover(); p != nil {
			s.ch, s.err = Chunk{}, wrapTable(r.table, Internal("", "top-k worker", p))
		}
	}()
	PanicPoint("top-k worker")
	s.ch, s.err = r.Read(b.id, s.buf)
	if s.err != nil {
		return
	}
	if s.ch.Reusable {
		s.buf = s.ch.Data
	}
	if !stats || s.ch.Info.InPlace {
		return // known, or a view of the mapping: folded on the calling goroutine, under the guard
	}
	var zero [planner.MaxRank]int64
	st, err := fold.FoldBox(dt, s.ch.Data, b.extent[:rank], zero[:rank], b.extent[:rank])
	if err != nil {
		s.err = fmt.Errorf("tet: %s: chunk %d: %w", r.table, b.id, err)
		return
	}
	s.stats = st
}
