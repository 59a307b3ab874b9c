package vtab

import (
	"fmt"
	"sync/atomic"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
	"github.com/tetsql/tetsql/tetcore"
)

// folder folds chunks into one worker's group slots.
type folder struct {
	c      *aggCursor
	sel    []axisSel
	stride []int64
	out    []fold.Stats
	buf    []byte
	stats  ScanStats
	ev     *evictor     // large folds: hands finished chunks' pages back
	stop   *atomic.Bool // set when a worker fails: the others stop
	// per-axis runs of the current chunk, chunk-local, with the compact
	// position of each run's first index
	runs [planner.MaxRank][]localRun
}

type localRun struct{ lo, hi, pos int64 }

// chunk reads one chunk and folds every selected sub-box of it.
func (f *folder) chunk(id int64) error {
	t := f.c.t
	ds := t.ds
	r := ds.Rank()
	if err := t.session.interrupted(); err != nil {
		return err // the query was cancelled: stop between chunks
	}
	if f.stop.Load() {
		return errStopped // another worker failed: its error is the answer
	}
	panicPoint("fold worker")
	wk := workOf(ds, id)
	w := &wk
	for d := 0; d < r; d++ {
		f.runs[d] = f.runs[d][:0]
		s := &f.sel[d]
		glo, ghi := w.start[d], w.start[d]+w.extent[d]
		for i, run := range s.runs {
			lo, hi := max(run.lo, glo), min(run.hi, ghi)
			if lo < hi {
				f.runs[d] = append(f.runs[d], localRun{lo - w.start[d], hi - w.start[d], s.compact(i, lo)})
			}
		}
		if len(f.runs[d]) == 0 {
			return nil // the box of this chunk misses the exact selection
		}
	}
	ch, ok := ds.Chunk(w.id)
	if !ok {
		coords := make([]int64, r)
		ds.ChunkCoords(w.id, coords)
		return fmt.Errorf("tet: %s: dataset %q chunk %v: %w", t.qualified, ds.Name, coords, tetcore.ErrMissingChunk)
	}
	data, err := t.h.File.ReadChunk(ds, ch, f.buf)
	if err != nil {
		return fmt.Errorf("tet: %s: %w", t.qualified, err)
	}
	if ch.Codec == tetcore.CodecZstd {
		f.buf = data
		f.stats.BytesDecoded += ch.RawLen
	}
	f.stats.ChunksDecoded++
	f.stats.BytesRead += ch.StoredLen
	defer f.ev.done(ch) // the fold is done with its stored bytes
	// A raw chunk is a view of the mapping: fold it under the file's
	// fault guard, so that a file truncated under the fold fails the
	// query instead of killing the process with SIGBUS.
	var ferr error
	if err := t.h.File.Guard(func() { ferr = f.foldChunk(w, data, r) }); err != nil {
		return fmt.Errorf("tet: %s: %w", t.qualified, err)
	}
	return ferr
}

// foldChunk folds the selected sub-boxes of one chunk's data.
func (f *folder) foldChunk(w *work, data []byte, r int) error {
	t := f.c.t
	ds := t.ds
	if f.fullChunk(w, r) {
		return f.foldWhole(w, data, r)
	}
	// Walk the cartesian product of the axes' runs.
	var idx, lo, hi [planner.MaxRank]int64
	for {
		base := int64(0)
		for d := 0; d < r; d++ {
			run := f.runs[d][idx[d]]
			lo[d], hi[d] = run.lo, run.hi
			base += f.stride[d] * run.pos
		}
		if err := fold.FoldGroups(ds.DType, data, w.extent[:r], lo[:r], hi[:r], f.stride, base, f.out); err != nil {
			return fmt.Errorf("tet: %s: chunk %d: %w", t.qualified, w.id, err)
		}
		d := r - 1
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < int64(len(f.runs[d])) {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return nil
		}
	}
}

// fullChunk reports whether the whole chunk is selected.
func (f *folder) fullChunk(w *work, r int) bool {
	for d := 0; d < r; d++ {
		if len(f.runs[d]) != 1 || f.runs[d][0].lo != 0 || f.runs[d][0].hi != w.extent[d] {
			return false
		}
	}
	return true
}

// foldWhole folds a wholly selected chunk and caches its statistics for
// value predicates on the cells table.
func (f *folder) foldWhole(w *work, data []byte, r int) error {
	ds := f.c.t.ds
	cache := cacheFor(ds)
	var zero [planner.MaxRank]int64
	grouped := false
	base := int64(0)
	for d := 0; d < r; d++ {
		grouped = grouped || f.stride[d] != 0
		base += f.stride[d] * f.runs[d][0].pos
	}
	if !grouped || !cache.has(w.id) {
		s, err := fold.FoldBox(ds.DType, data, w.extent[:r], zero[:r], w.extent[:r])
		if err != nil {
			return fmt.Errorf("tet: %s: chunk %d: %w", f.c.t.qualified, w.id, err)
		}
		cache.put(w.id, s)
		if !grouped {
			f.out[base] = fold.Merge(f.out[base], s)
			return nil
		}
	}
	if err := fold.FoldGroups(ds.DType, data, w.extent[:r], zero[:r], w.extent[:r], f.stride, base, f.out); err != nil {
		return fmt.Errorf("tet: %s: chunk %d: %w", f.c.t.qualified, w.id, err)
	}
	return nil
}
