package scan

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
)

// The value terms of an aggregate (FoldSpec.Terms): a chunk whose
// statistics exclude them is skipped unread, one whose statistics show
// every element passing is folded as usual, and any other has only its
// passing elements folded: they are copied, in order and in their own
// dtype, into a scratch buffer per run of elements that share a group,
// which the fold kernels then reduce. The second pass (Pick) makes the
// same three decisions, which are exact, so it sees the very elements
// the fold counted: it gathers the passing ones with their rowids and
// hands them to the Picker (fold.Picker.Elems). Groups are numbered as
// the fold numbers them, by the box strides of coarsened axes too.

// scratchElems bounds the scratch buffer: a run of one group is folded
// in pieces of at most this many elements.
const scratchElems = 4096

// skipChunk reports whether the statistics already known for chunk id
// exclude every element by the value terms (then it is not read).
func (f *folder) skipChunk(id int64) bool {
	if len(f.spec.Terms) == 0 {
		return false
	}
	st, ok := f.r.a.ChunkStat(id)
	return ok && Excludes(st, f.spec.Terms)
}

// foldValues folds the chunk just read under the value terms: its
// statistics, computed now if unknown (and kept), decide between
// skipping it, folding it whole and folding its passing elements.
func (f *folder) foldValues(w *work, data []byte, r int) error {
	a := f.r.a
	st, ok := a.ChunkStat(w.id)
	if !ok || st.FromFile {
		n := int64(len(data)) / int64(a.Info().DType.Size())
		ext := []int64{n}
		s, err := fold.FoldBox(a.Info().DType, data, ext, []int64{0}, ext)
		if err != nil {
			return fmt.Errorf("tet: %s: chunk %d: %w", f.r.table, w.id, err)
		}
		now := a.stats.put(w.id, s)
		if ok {
			a.checkZone(st, now)
		}
		st = now
	}
	switch {
	case Excludes(st, f.spec.Terms):
		return nil
	case f.vf.covers(st):
		return f.foldChunkAll(w, data, r)
	}
	return f.foldPassing(w, data, r)
}

// foldPassing folds the passing elements of every selected sub-box of
// the chunk (the cartesian product of the axes' runs, as foldChunk).
func (f *folder) foldPassing(w *work, data []byte, r int) error {
	var idx [planner.MaxRank]int64
	for {
		base := int64(0)
		for d := 0; d < r; d++ {
			base += f.spec.Stride[d] * f.runs[d][idx[d]].pos
		}
		if err := f.foldBoxPassing(w, data, r, &idx, base); err != nil {
			return err
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

// foldBoxPassing walks one sub-box row by row (rows along the last
// axis), gathering the passing elements of consecutive positions of one
// group into the scratch buffer and folding it into that group (or, in
// the second pass, feeding it to the Picker with their rowids) whenever
// the group changes or the buffer fills. The group numbering is the
// fold's: base, then the box strides (0 on coarsened axes, whose group
// is constant over a piece). A row whose last axis is not grouped is
// gathered by one typed loop (valueFilter.gather) when no rowids are
// needed.
func (f *folder) foldBoxPassing(w *work, data []byte, r int, idx *[planner.MaxRank]int64, base int64) error {
	dt := f.r.a.Info().DType
	size := int64(dt.Size())
	stride := f.boxStride(r)
	var lo, hi, pos, cstride [planner.MaxRank]int64
	s := int64(1)
	for d := r - 1; d >= 0; d-- {
		run := f.runs[d][idx[d]]
		lo[d], hi[d], pos[d] = run.lo, run.hi, run.lo
		cstride[d] = s
		s *= w.extent[d]
	}
	if cap(f.scratch) < scratchElems*int(size) {
		f.scratch = make([]byte, scratchElems*size)
	}
	rowBase := int64(0)
	if f.pick != nil {
		if f.rids == nil {
			f.rids = make([]int64, scratchElems)
		}
		for d := 0; d < r; d++ {
			rowBase += w.start[d] * f.rowStride[d]
		}
	}
	f.pending, f.group = 0, -1
	last := r - 1
	for {
		off, g, rid := int64(0), base, rowBase
		for d := 0; d < r; d++ {
			off += pos[d] * cstride[d]
			g += stride[d] * (pos[d] - lo[d])
			if f.pick != nil {
				rid += pos[d] * f.rowStride[d]
			}
		}
		gs := stride[last]
		bulk := gs == 0 && f.pick == nil
		if bulk { // the whole row goes to group g: gather it in bulk
			if g != f.group {
				if err := f.flush(); err != nil {
					return err
				}
				f.group = g
			}
			for i := lo[last]; i < hi[last]; {
				if f.pending == scratchElems {
					if err := f.flush(); err != nil {
						return err
					}
				}
				k := min(hi[last]-i, int64(scratchElems-f.pending))
				f.pending += f.vf.gather(f.scratch[int64(f.pending)*size:], data, int(off), int(k))
				i, off = i+k, off+k
			}
		}
		rs := int64(0)
		if f.pick != nil {
			rs = f.rowStride[last]
		}
		for i := lo[last]; !bulk && i < hi[last]; i, off, g, rid = i+1, off+1, g+gs, rid+rs {
			if !f.vf.passes(data, int(off)) {
				continue
			}
			if g != f.group || f.pending == scratchElems {
				if err := f.flush(); err != nil {
					return err
				}
				f.group = g
			}
			copy(f.scratch[int64(f.pending)*size:], data[off*size:(off+1)*size])
			if f.pick != nil {
				f.rids[f.pending] = rid
			}
			f.pending++
		}
		d := last - 1
		for ; d >= 0; d-- {
			pos[d]++
			if pos[d] < hi[d] {
				break
			}
			pos[d] = lo[d]
		}
		if d < 0 {
			return f.flush()
		}
	}
}

// flush folds the gathered elements into their group, or feeds them to
// the Picker in the second pass.
func (f *folder) flush() error {
	if f.pending == 0 {
		return nil
	}
	dt := f.r.a.Info().DType
	vals := f.scratch[:f.pending*dt.Size()]
	if f.pick != nil {
		if err := f.pick.Elems(f.group, vals, f.rids[:f.pending]); err != nil {
			return fmt.Errorf("tet: %s: %w", f.r.table, err)
		}
		f.pending = 0
		return nil
	}
	n := []int64{int64(f.pending)}
	s, err := fold.FoldBox(dt, vals, n, []int64{0}, n)
	if err != nil {
		return fmt.Errorf("tet: %s: %w", f.r.table, err)
	}
	f.out[f.group] = fold.Merge(f.out[f.group], s)
	f.pending = 0
	return nil
}
