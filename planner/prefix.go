package planner

// Closed-form sums over the candidate chunks in ordinal (row-major) order.
// A chunk's size is a product of per-axis extents, so the sum over the first
// t candidates decomposes along the mixed-radix digits of t; see prefix.

// axisPrefix returns the extent along axis d covered by the first j
// candidate chunks of that axis: their selected part when sel, else their
// whole (edge-trimmed) extent.
func (p *Plan) axisPrefix(sel bool, d int, j int64) int64 {
	if j <= 0 {
		return 0
	}
	c := p.g.chunk[d]
	from, upto := p.clo[d]*c, p.g.shape[d]
	if sel {
		from, upto = p.lo[d], p.hi[d]
	}
	end, ok := mulNonNeg(p.clo[d]+j, c)
	if !ok || end > upto {
		end = upto
	}
	return max(end-from, 0)
}

// prefix returns the number of elements (selected ones when sel, else all
// elements of the edge-trimmed chunks) in the first t candidate chunks.
// Chunks before t in row-major order agree with t on digits 0..k-1 and are
// smaller on digit k, for exactly one k, so
//
//	prefix(t) = Σ_k Π_{d<k} size_d(t_d) · axisPrefix_k(t_k) · Π_{d>k} axisPrefix_d(n_d)
//
// Every partial product counts elements of a sub-box, so none overflows.
func (p *Plan) prefix(sel bool, t int64) int64 {
	if t <= 0 || p.empty {
		return 0
	}
	var digit, whole [MaxRank]int64
	rest := t
	for d := p.rank - 1; d >= 0; d-- {
		n := p.chi[d] - p.clo[d]
		digit[d] = rest % n
		rest /= n
		whole[d] = p.axisPrefix(sel, d, n)
	}
	if rest > 0 { // t is past the last candidate: everything
		all := int64(1)
		for d := range p.rank {
			all *= whole[d]
		}
		return all
	}
	var tail [MaxRank]int64
	s := int64(1)
	for d := p.rank - 1; d >= 0; d-- {
		tail[d] = s
		s *= whole[d]
	}
	var sum int64
	head := int64(1)
	for k := range p.rank {
		before := p.axisPrefix(sel, k, digit[k])
		sum += head * before * tail[k]
		head *= p.axisPrefix(sel, k, digit[k]+1) - before
	}
	return sum
}
