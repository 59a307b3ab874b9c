package planner

// Plan is the result of planning one Filter call: the selected box, the
// optional rowid filter, the chunks to visit and row estimates. The zero
// Plan is an empty plan; [Plan.Reset] (re)builds it and reuses its memory,
// so a cursor that keeps one Plan plans without allocating once warm. A Plan
// is not safe for concurrent use.
type Plan struct {
	g        *Geometry
	rank     int
	empty    bool
	lo, hi   [MaxRank]int64 // selected box, half-open
	clo, chi [MaxRank]int64 // intersecting chunk-grid range, half-open
	honoured []bool

	rowFilter    bool           // the cursor must test rlo ≤ rowid < rhi
	hasRowID     bool           // some rowid constraint was applied
	rlo, rhi     int64          // rowid range, half-open
	rloC, rhiC   [MaxRank]int64 // coordinates of rlo and rhi
	rhiAll       bool           // rhi == Elements (rhiC unused)
	tStart, tEnd int64          // ordinals (row-major over clo..chi) of candidate chunks

	estimated, selected int64
	limit, offset       int64
}

// NewPlan is a convenience that builds a fresh Plan; see [Plan.Reset].
func (g *Geometry) NewPlan(cs []Constraint) (*Plan, error) {
	p := new(Plan)
	return p, p.Reset(g, cs)
}

// Reset builds the plan for constraints cs over g, reusing p's memory.
// Constraints on the same target intersect. It fails only for an invalid
// target or operator ([ErrConstraint]) or a nil g, leaving p empty.
// Values are only read during the call.
func (p *Plan) Reset(g *Geometry, cs []Constraint) error {
	if g == nil {
		*p = Plan{honoured: p.honoured[:0]}
		return ErrConstraint
	}
	p.g, p.rank = g, g.rank
	p.empty = g.total == 0
	for d := range g.rank {
		p.lo[d], p.hi[d] = 0, g.shape[d]
	}
	p.rlo, p.rhi, p.hasRowID, p.rowFilter = 0, g.total, false, false
	p.limit, p.offset = -1, 0
	p.honoured = p.honoured[:0]
	for _, c := range cs {
		if err := g.check(c); err != nil {
			p.honoured = p.honoured[:0]
			p.setEmpty()
			return err
		}
		p.honoured = append(p.honoured, p.apply(c))
	}
	p.finish()
	return nil
}

// apply narrows the plan by one valid constraint and reports whether it is
// honoured exactly.
func (p *Plan) apply(c Constraint) bool {
	switch c.Op {
	case OpLimit:
		n, ok := countValue(c.Value)
		if ok {
			p.limit = n
			if n < 0 {
				p.limit = -1 // SQLite: a negative LIMIT means no limit
			}
		}
		return ok
	case OpOffset:
		n, ok := countValue(c.Value)
		if ok {
			p.offset = max(n, 0) // SQLite: a negative OFFSET means 0
		}
		return ok
	}
	t := c.Target
	switch t.Kind {
	case KindDim, KindRowID:
		lo, hi, ok := numericSpan(c.Op, c.Value)
		if t.Kind == KindRowID {
			p.hasRowID = p.hasRowID || ok
			p.rlo, p.rhi = max(p.rlo, lo), min(p.rhi, hi)
		} else {
			p.lo[t.Axis], p.hi[t.Axis] = max(p.lo[t.Axis], lo), min(p.hi[t.Axis], hi)
		}
		return ok
	case KindLabel:
		var lo, hi int64
		exact, restrict := true, true
		if na := p.g.labels[t.Axis].numeric(); na != nil {
			v, null, ok := numOf(c.Value)
			switch {
			case !ok:
				return false // TEXT and BLOB: the caller applies numeric affinity first
			case !null:
				lo, hi, exact = na.span(c.Op, v)
			}
			p.lo[t.Axis], p.hi[t.Axis] = max(p.lo[t.Axis], lo), min(p.hi[t.Axis], hi)
			return exact
		}
		switch v := c.Value.(type) {
		case nil:
			// NULL matches nothing: lo = hi = 0
		case string:
			lo, hi, exact, restrict = p.g.labels[t.Axis].span(c.Op, v)
		default:
			return false // numbers and BLOBs: SQLite's comparison rules apply
		}
		if restrict {
			p.lo[t.Axis], p.hi[t.Axis] = max(p.lo[t.Axis], lo), min(p.hi[t.Axis], hi)
		}
		return exact
	}
	return false
}

// finish derives chunk ranges and estimates from the box and rowid range.
func (p *Plan) finish() {
	if p.empty || p.rlo >= p.rhi || p.boxEmpty() {
		p.setEmpty()
		return
	}
	p.selected = p.boxSize()
	if p.hasRowID && !p.applyRowID() {
		p.setEmpty()
		return
	}
	var n int64 = 1
	for d := range p.rank {
		c := p.g.chunk[d]
		p.clo[d], p.chi[d] = p.lo[d]/c, (p.hi[d]-1)/c+1
		n *= p.chi[d] - p.clo[d] // ≤ chunk count
	}
	p.tStart, p.tEnd = 0, n
	if p.rowFilter {
		p.tStart, p.tEnd = p.rowIDOrdinals(n)
	}
	p.estimated = p.prefix(false, p.tEnd) - p.prefix(false, p.tStart)
}

func (p *Plan) setEmpty() {
	p.empty = true
	p.rowFilter = false
	p.tStart, p.tEnd = 0, 0
	p.estimated, p.selected = 0, 0
	for d := range p.rank {
		p.lo[d], p.hi[d], p.clo[d], p.chi[d] = 0, 0, 0, 0
	}
}

func (p *Plan) boxEmpty() bool {
	for d := range p.rank {
		if p.lo[d] >= p.hi[d] {
			return true
		}
	}
	return false
}

func (p *Plan) boxSize() int64 {
	var n int64 = 1
	for d := range p.rank {
		n *= p.hi[d] - p.lo[d]
	}
	return n
}

// Empty reports whether the plan selects nothing (no chunk is visited).
func (p *Plan) Empty() bool { return p.empty || p.g == nil }

// Geometry returns the planned geometry (nil for the zero Plan).
func (p *Plan) Geometry() *Geometry { return p.g }

// Rank returns the rank of the planned geometry.
func (p *Plan) Rank() int { return p.rank }

// Honoured reports whether constraint i (as passed to Reset) is exactly
// enforced by the plan. When false the caller must leave it for SQLite.
func (p *Plan) Honoured(i int) bool { return i >= 0 && i < len(p.honoured) && p.honoured[i] }

// AllHonoured reports whether every constraint is honoured.
func (p *Plan) AllHonoured() bool {
	for _, h := range p.honoured {
		if !h {
			return false
		}
	}
	return true
}

// Interval returns the selected index range [lo, hi) along axis d
// (lo == hi == 0 for an empty plan).
func (p *Plan) Interval(d int) (lo, hi int64) { return p.lo[d], p.hi[d] }

// ChunkRange returns the range [lo, hi) of chunk-grid coordinates along
// axis d whose chunks intersect the selected box.
func (p *Plan) ChunkRange(d int) (lo, hi int64) { return p.clo[d], p.chi[d] }

// RowIDFilter returns the rowid range [lo, hi) the cursor must test each
// row against (tightened to the first and last selected rowid); needed is
// false when the box alone is exact (no rowid constraint, or one the box
// already expresses, such as whole rows or a run inside one row).
func (p *Plan) RowIDFilter() (lo, hi int64, needed bool) { return p.rlo, p.rhi, p.rowFilter }

// EstimatedRows returns the number of elements in the chunks that survive
// planning (whole chunks, edge chunks trimmed): what SQLite should be told
// for EstimatedRows. With a rowid filter it counts the chunks that survive
// min/max rowid pruning, an upper bound of the chunks the iterator yields.
func (p *Plan) EstimatedRows() int64 { return p.estimated }

// SelectedRows returns the exact number of elements selected (box ∩ rowid
// range), before LIMIT/OFFSET; constraints that are not honoured are not
// applied, so it is an upper bound of the rows SQLite will accept.
func (p *Plan) SelectedRows() int64 { return p.selected }

// ChunkCount returns the number of candidate chunks; the iterator yields
// exactly these, except that with a rowid filter it skips candidates with
// no selected element.
func (p *Plan) ChunkCount() int64 { return p.tEnd - p.tStart }

// Limit returns the LIMIT (ok false when there is none or it is negative).
// The planner does not apply it: the cursor stops after n rows.
func (p *Plan) Limit() (n int64, ok bool) { return p.limit, p.limit >= 0 }

// Offset returns the OFFSET (0 when absent), to pass to [Iter.NextSkip].
func (p *Plan) Offset() int64 { return p.offset }
