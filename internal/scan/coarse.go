package scan

import "slices"

// Coarsened group axes (by 'time/5'): an element with index i on such an
// axis belongs to the group of block i/k. The fold's group numbering is
// linear in the index (fold.FoldGroups), which i/k is not, so the folder
// cuts every run of a coarsened axis at block boundaries into pieces,
// each inside one block: over a piece the group is constant, so the
// axis's box stride is 0 and the block's position among the selection's
// blocks (FoldSpec.Blocks) goes into the group base.

// Blocks returns the distinct i/k of the selected indices i, ascending
// (k ≥ 1): the group keys of a coarsened axis.
func (s *AxisSel) Blocks(k int64) []int64 {
	var out []int64
	for _, r := range s.Runs {
		for b := r.Lo / k; b <= (r.Hi-1)/k; b++ {
			if n := len(out); n == 0 || out[n-1] < b {
				out = append(out, b)
			}
		}
	}
	return out
}

// BlockCount is len(s.Blocks(k)), counted without making the list, so
// that a caller can budget it first.
func (s *AxisSel) BlockCount(k int64) int64 {
	n, last := int64(0), int64(-1)
	for _, r := range s.Runs {
		lo, hi := r.Lo/k, (r.Hi-1)/k
		if lo == last {
			lo++
		}
		if hi >= lo {
			n += hi - lo + 1
		}
		last = hi
	}
	return n
}

// coarse reports whether axis d is a coarsened group axis.
func (f *folder) coarse(d int) bool {
	return d < len(f.spec.Coarse) && f.spec.Coarse[d] > 1
}

// pieces appends to runs the pieces of the global run [lo, hi) of
// coarsened axis d, cut at multiples of k, chunk-local (start is the
// chunk's start on d), each with its block's group position.
func (f *folder) pieces(runs []localRun, d int, lo, hi, start int64) []localRun {
	k := f.spec.Coarse[d]
	blocks := f.spec.Blocks[d]
	for lo < hi {
		b := lo / k
		end := min(hi, (b+1)*k)
		pos, _ := slices.BinarySearch(blocks, b)
		runs = append(runs, localRun{lo - start, end - start, int64(pos)})
		lo = end
	}
	return runs
}

// boxStride returns the group strides of a piece: the spec's, with 0 on
// coarsened axes. When every group axis is coarsened (pieceOne), each
// piece folds into one group, small boxes gathered whole
// (fold.FoldSmallBox) rather than pushed element by element.
func (f *folder) boxStride(r int) []int64 {
	if !f.bsSet {
		copy(f.bs[:r], f.spec.Stride)
		f.pieceOne = len(f.spec.Coarse) > 0
		for d := 0; d < r; d++ {
			if f.coarse(d) {
				f.bs[d] = 0
			}
			f.pieceOne = f.pieceOne && f.bs[d] == 0
		}
		f.bsSet = true
	}
	return f.bs[:r]
}
