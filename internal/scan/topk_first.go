package scan

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
)

// The first pass of a TopK reads every chunk that has no statistics yet
// (all of them, the first time a dataset is asked): the decodes and the
// statistics run on several goroutines, a batch of chunks at a time; the
// heap is then fed on the calling goroutine in plan order, so the result
// and the counters are those of a serial pass.

// topSlot is one chunk of a batch, read on a worker goroutine.
type topSlot struct {
	buf   []byte // decode buffer, reused across batches
	ch    Chunk
	stats fold.Stats
	err   error
}

// firstPass reads t.first and offers their elements to the heap.
func (t *TopK) firstPass(r *Reader, sess *Session, st *ScanStats) error {
	par := t.firstParallelism(r, sess)
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
				t.slots[j].load(r, &batch[j], t.dt, t.rank)
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
			if err := t.offerChunk(r, st, &s.ch, false, folded); err != nil {
				return err
			}
		}
	}
	return nil
}

// firstParallelism is how many chunks the first pass reads at once: the
// session's decode goroutines (DecodeParallelism, or min(GOMAXPROCS,
// MaxAutoParallelism)), fewer when that many decoded chunks exceed
// ReadAheadBytes beyond the one a serial pass holds; 1 (serial) with
// read-ahead off, for in-place chunks (free to read, and read under the
// source's guard) and for a single chunk.
func (t *TopK) firstParallelism(r *Reader, sess *Session) int {
	if sess == nil || sess.ReadAhead < 0 || len(t.first) < 2 {
		return 1
	}
	if ci, ok := r.a.Chunk(t.first[0].id); !ok || ci.InPlace {
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
	return int(min(int64(min(par, len(t.first))), 1+budget/max(per, 1)))
}

// load reads chunk b.id into s and computes its statistics (not for an
// in-place chunk, a view of the file to be read under the source's
// guard). A panic on
// this goroutine would end the process whatever SQLite's thread
// recovers, so it becomes s.err, which the query then reports.
func (s *topSlot) load(r *Reader, b *topBox, dt array.DType, rank int) {
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
	if s.ch.Info.InPlace {
		return // a view of the mapping: folded on the calling goroutine, under the guard
	}
	var zero [planner.MaxRank]int64
	st, err := fold.FoldBox(dt, s.ch.Data, b.extent[:rank], zero[:rank], b.extent[:rank])
	if err != nil {
		s.err = fmt.Errorf("tet: %s: chunk %d: %w", r.table, b.id, err)
		return
	}
	s.stats = st
}
