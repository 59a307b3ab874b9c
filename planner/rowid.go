package planner

// applyRowID narrows the box to the bounding box of its elements whose
// rowid lies in [rlo, rhi), computes the exact selected count and decides
// whether the cursor still needs a per-row rowid test. It returns false
// when nothing is selected.
//
// Let a and b be the first and last box elements inside the rowid range
// (row-major order). The bounding box of the selection is exact: axes on
// which a and b share their leading coordinates are fixed, the first axis
// where they differ spans [a_k, b_k], and the remaining axes stay whole.
func (p *Plan) applyRowID() bool {
	g := p.g
	var r, a, b [MaxRank]int64
	g.unravelRow(p.rlo, &r)
	if !p.boxCeil(&r, &a) {
		return false
	}
	g.unravelRow(p.rhi-1, &r)
	if !p.boxFloor(&r, &b) {
		return false
	}
	p.rlo, p.rhi = g.rowIDOf(&a), g.rowIDOf(&b)+1 // same selection, tighter range
	if p.rlo >= p.rhi {
		return false
	}
	for d := range p.rank {
		p.lo[d], p.hi[d] = a[d], b[d]+1
		if a[d] != b[d] {
			break
		}
	}
	p.rloC = a
	p.rhiAll = p.rhi >= g.total
	if !p.rhiAll {
		g.unravelRow(p.rhi, &p.rhiC)
	}
	sel := p.countRange(&p.lo, &p.hi)
	p.rowFilter = sel != p.boxSize()
	p.selected = sel
	return true
}

// boxCeil writes into out the smallest box element whose coordinates are
// row-major ≥ r, reporting false if there is none.
func (p *Plan) boxCeil(r, out *[MaxRank]int64) bool {
	j := -1 // last axis whose coordinate could still be incremented
	for k := range p.rank {
		switch {
		case r[k] < p.lo[k]:
			copy(out[k:p.rank], p.lo[k:p.rank])
			return true
		case r[k] >= p.hi[k]:
			if j < 0 {
				return false
			}
			out[j]++
			copy(out[j+1:p.rank], p.lo[j+1:p.rank])
			return true
		}
		out[k] = r[k]
		if r[k]+1 < p.hi[k] {
			j = k
		}
	}
	return true
}

// boxFloor writes into out the largest box element whose coordinates are
// row-major ≤ r, reporting false if there is none.
func (p *Plan) boxFloor(r, out *[MaxRank]int64) bool {
	j := -1 // last axis whose coordinate could still be decremented
	for k := range p.rank {
		switch {
		case r[k] >= p.hi[k]:
			for d := k; d < p.rank; d++ {
				out[d] = p.hi[d] - 1
			}
			return true
		case r[k] < p.lo[k]:
			if j < 0 {
				return false
			}
			out[j]--
			for d := j + 1; d < p.rank; d++ {
				out[d] = p.hi[d] - 1
			}
			return true
		}
		out[k] = r[k]
		if r[k] > p.lo[k] {
			j = k
		}
	}
	return true
}

// countRange returns the number of elements of box [lo, hi) whose rowid
// lies in [rlo, rhi).
func (p *Plan) countRange(lo, hi *[MaxRank]int64) int64 {
	return p.countBelow(lo, hi, &p.rhiC, p.rhiAll) - p.countBelow(lo, hi, &p.rloC, false)
}

// countBelow returns the number of elements of box [lo, hi) whose
// coordinates are row-major (lexicographically) less than r; all means r is
// past the end of the array. O(rank), no overflow: every term counts a
// sub-box of the box.
func (p *Plan) countBelow(lo, hi, r *[MaxRank]int64, all bool) int64 {
	var suffix [MaxRank]int64
	s := int64(1)
	for d := p.rank - 1; d >= 0; d-- {
		suffix[d] = s
		s *= hi[d] - lo[d]
	}
	if all {
		return s
	}
	var count int64
	for k := range p.rank {
		below := min(max(r[k]-lo[k], 0), hi[k]-lo[k])
		count += below * suffix[k]
		if r[k] < lo[k] || r[k] >= hi[k] {
			break
		}
	}
	return count
}

// chunkAt writes the grid coordinates of candidate ordinal t (row-major over
// the candidate chunk range) into c.
func (p *Plan) chunkAt(t int64, c *[MaxRank]int64) {
	for d := p.rank - 1; d >= 0; d-- {
		n := p.chi[d] - p.clo[d]
		c[d] = p.clo[d] + t%n
		t /= n
	}
}

// subBox writes the selected part of chunk c, in global coordinates, into
// [lo, hi).
func (p *Plan) subBox(c, lo, hi *[MaxRank]int64) {
	for d := range p.rank {
		s, e := chunkSpan(c[d], p.g.chunk[d], p.g.shape[d])
		lo[d], hi[d] = max(s, p.lo[d]), min(e, p.hi[d])
	}
}

// cornerRows returns the smallest and largest rowid of the selected part of
// candidate chunk t. Both are strictly increasing in t, which makes the
// candidates surviving min/max pruning one contiguous ordinal range.
func (p *Plan) cornerRows(t int64) (first, last int64) {
	var c, lo, hi [MaxRank]int64
	p.chunkAt(t, &c)
	p.subBox(&c, &lo, &hi)
	for d := range p.rank {
		hi[d]--
	}
	return p.g.rowIDOf(&lo), p.g.rowIDOf(&hi)
}

// rowIDOrdinals returns the ordinal range [start, end) of the n candidate
// chunks whose selected rowids [first, last] overlap [rlo, rhi).
func (p *Plan) rowIDOrdinals(n int64) (start, end int64) {
	start = searchOrdinal(0, n, func(t int64) bool { _, last := p.cornerRows(t); return last >= p.rlo })
	end = searchOrdinal(start, n, func(t int64) bool { first, _ := p.cornerRows(t); return first >= p.rhi })
	return start, end
}

// searchOrdinal returns the smallest t in [lo, hi) for which f is true
// (hi if none), f being false then true over the range.
func searchOrdinal(lo, hi int64, f func(int64) bool) int64 {
	for lo < hi {
		m := lo + (hi-lo)/2
		if f(m) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}
