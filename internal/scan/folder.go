package scan

import (
	"fmt"
	"sync/atomic"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
)

// folder folds chunks into one worker's group slots.
type folder struct {
	spec  *FoldSpec
	r     Reader
	out   []fold.Stats
	buf   []byte
	stats ScanStats
	ev    *evictor     // large folds: hands finished chunks' pages back
	stop  *atomic.Bool // set when a worker fails: the others stop
	// per-axis runs of the current chunk, chunk-local, with the compact
	// position of each run's first index
	runs [planner.MaxRank][]localRun
	// boxLo and boxHi hold the box the runs span (see box).
	boxLo, boxHi [planner.MaxRank]int64

	// The chunk being folded, kept here rather than in locals so that
	// folding a chunk allocates nothing (guarded runs fold under
	// Source.Guard, made once per folder).
	w       work
	info    array.ChunkInfo
	data    []byte
	rank    int
	ferr    error
	guarded func()

	// box strides: the group strides, 0 on coarsened axes, whose group
	// is constant over each piece of a run (coarse.go)
	bs    [planner.MaxRank]int64
	bsSet bool
	// every group axis is coarsened: each piece folds into one group
	pieceOne bool
	// the second pass (Pick): elements go to pick, not into out
	pick      *fold.Picker
	rowStride []int64

	// value terms (foldvalue.go): the compiled filter, the scratch buffer
	// of passing elements, how many it holds and their group (and, for
	// the second pass, their rowids)
	vf      valueFilter
	scratch []byte
	rids    []int64
	pending int
	group   int64
}

type localRun struct{ lo, hi, pos int64 }

// work is one chunk to fold: its id and its place in the array. The
// fold selects inside it by the exact axis selections (which lie within
// the plan's box), so the plan's sub-box need not be kept.
type work struct {
	id            int64
	start, extent [planner.MaxRank]int64
}

// chunk reads one chunk and folds every selected sub-box of it.
func (f *folder) chunk(id int64) error {
	a := f.r.a
	in := a.Info()
	r := in.Rank()
	if err := f.spec.Session.Interrupted(); err != nil {
		return err // the query was cancelled: stop between chunks
	}
	if f.stop.Load() {
		return errStopped // another worker failed: its error is the answer
	}
	PanicPoint("fold worker")
	w := &f.w
	w.id = id
	in.ChunkBox(id, w.start[:r], w.extent[:r])
	for d := 0; d < r; d++ {
		f.runs[d] = f.runs[d][:0]
		s := &f.spec.Sel[d]
		glo, ghi := w.start[d], w.start[d]+w.extent[d]
		for i, run := range s.Runs {
			lo, hi := max(run.Lo, glo), min(run.Hi, ghi)
			switch {
			case lo >= hi:
			case f.coarse(d):
				f.runs[d] = f.pieces(f.runs[d], d, lo, hi, w.start[d])
			default:
				f.runs[d] = append(f.runs[d], localRun{lo - w.start[d], hi - w.start[d], s.Compact(i, lo)})
			}
		}
		if len(f.runs[d]) == 0 {
			return nil // the box of this chunk misses the exact selection
		}
	}
	if f.skipChunk(id) {
		f.stats.ChunksSkipped++
		return nil
	}
	var c Chunk
	var err error
	if lo, hi, ok := f.box(w, r); ok {
		c, err = f.r.ReadBox(id, lo, hi, f.buf)
	} else {
		c, err = f.r.Read(id, f.buf)
	}
	if err != nil {
		return err
	}
	if c.Reusable {
		f.buf = c.Data
	}
	f.stats.Count(&c)
	f.spec.Session.LiveChunk(f.selected(r))
	f.info, f.data, f.rank, f.ferr = c.Info, c.Data, r, nil
	defer f.ev.done(&f.info) // the fold is done with its stored bytes
	// An in-place chunk is a view of the mapping: fold it under the
	// source's fault guard, so that a file truncated under the fold fails
	// the query instead of killing the process with SIGBUS.
	if f.guarded == nil {
		f.guarded = func() { f.ferr = f.foldChunk(&f.w, f.data, f.rank) }
	}
	if err := a.src.Guard(f.guarded); err != nil {
		return fmt.Errorf("tet: %s: %w", f.r.table, err)
	}
	f.data = nil
	return f.ferr
}

// foldChunk folds the selected sub-boxes of one chunk's data, only
// their elements that pass the value terms if any.
func (f *folder) foldChunk(w *work, data []byte, r int) error {
	if len(f.spec.Terms) > 0 {
		return f.foldValues(w, data, r)
	}
	return f.foldChunkAll(w, data, r)
}

// foldChunkAll folds every element of the selected sub-boxes (or, in
// the second pass, feeds them to the Picker).
func (f *folder) foldChunkAll(w *work, data []byte, r int) error {
	bs := f.boxStride(r)
	if f.pick == nil && f.fullChunk(w, r) {
		return f.foldWhole(w, data, r, bs)
	}
	dt := f.r.a.Info().DType
	rowBase := int64(0)
	for d := 0; d < r && f.pick != nil; d++ {
		rowBase += w.start[d] * f.rowStride[d]
	}
	// Walk the cartesian product of the axes' runs.
	var idx, lo, hi [planner.MaxRank]int64
	for {
		base := int64(0)
		for d := 0; d < r; d++ {
			run := f.runs[d][idx[d]]
			lo[d], hi[d] = run.lo, run.hi
			base += f.spec.Stride[d] * run.pos
		}
		var err error
		if f.pick != nil {
			err = f.pick.Box(data, w.extent[:r], lo[:r], hi[:r], bs, base, f.rowStride, rowBase)
		} else if f.pieceOne {
			err = fold.FoldSmallBox(dt, data, w.extent[:r], lo[:r], hi[:r], &f.out[base])
		} else {
			err = fold.FoldGroups(dt, data, w.extent[:r], lo[:r], hi[:r], bs, base, f.out)
		}
		if err != nil {
			return fmt.Errorf("tet: %s: chunk %d: %w", f.r.table, w.id, err)
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

// selected is how many elements of the current chunk the runs select.
func (f *folder) selected(r int) int64 {
	n := int64(1)
	for d := 0; d < r; d++ {
		m := int64(0)
		for _, run := range f.runs[d] {
			m += run.hi - run.lo
		}
		n *= m
	}
	return n
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

// box returns the chunk-local box bounding the selected runs when it is
// a strict part of the chunk and may be read alone: without value terms,
// whose handling summarises the whole chunk on first need.
func (f *folder) box(w *work, r int) (lo, hi []int64, ok bool) {
	if len(f.spec.Terms) > 0 || f.fullChunk(w, r) {
		return nil, nil, false
	}
	lo, hi = f.boxLo[:r], f.boxHi[:r]
	for d := 0; d < r; d++ {
		runs := f.runs[d]
		lo[d], hi[d] = runs[0].lo, runs[0].hi
		for _, run := range runs[1:] {
			lo[d], hi[d] = min(lo[d], run.lo), max(hi[d], run.hi)
		}
	}
	return lo, hi, true
}

// foldWhole folds a wholly selected chunk and keeps its statistics for
// value predicates on the cells table.
func (f *folder) foldWhole(w *work, data []byte, r int, stride []int64) error {
	a := f.r.a
	dt := a.Info().DType
	var zero [planner.MaxRank]int64
	grouped := false
	base := int64(0)
	for d := 0; d < r; d++ {
		grouped = grouped || stride[d] != 0
		base += f.spec.Stride[d] * f.runs[d][0].pos
	}
	if !grouped || !a.stats.has(w.id) {
		s, err := fold.FoldBox(dt, data, w.extent[:r], zero[:r], w.extent[:r])
		if err != nil {
			return fmt.Errorf("tet: %s: chunk %d: %w", f.r.table, w.id, err)
		}
		a.stats.put(w.id, s)
		if !grouped {
			f.out[base] = fold.Merge(f.out[base], s)
			return nil
		}
	}
	if err := fold.FoldGroups(dt, data, w.extent[:r], zero[:r], w.extent[:r], stride, base, f.out); err != nil {
		return fmt.Errorf("tet: %s: chunk %d: %w", f.r.table, w.id, err)
	}
	return nil
}
