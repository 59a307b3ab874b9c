package planner

// Estimate is the BestIndex-time cost model of a set of constraints whose
// values are not known yet.
type Estimate struct {
	// Rows is the number of elements in the chunks expected to be read
	// (whole chunks): what to report as EstimatedRows. A full scan is
	// Elements.
	Rows int64
	// Selected is the number of elements expected to match.
	Selected int64
	// Chunks is the number of chunks expected to be read.
	Chunks int64
	// Axis is, per axis, the number of indices expected to be selected
	// (the factors of Selected; with a rowid equality, 1 on every axis).
	// An aggregate grouped by some axes has the product of theirs as its
	// number of output rows.
	Axis [MaxRank]int64
}

// rangeFactor is how much one range bound (<, <=, >, >=) shrinks its axis
// in [Geometry.Estimate]: SQLite's own default guess for a range term.
const rangeFactor = 4

// Estimate prices "the plan made of these constraints" before their values
// are known; Constraint.Value is ignored, as are constraints for which
// [Geometry.Usable] reports no Prunes bit. Heuristics, per axis d of size n:
//
//   - equality on the dim or its label column selects 1 index;
//   - each range bound on the dim or label column keeps 1/4 of what is left
//     (at least 1), so BETWEEN keeps 1/16;
//   - rowid equality selects 1 element in 1 chunk (the volume of a full
//     chunk is reported as Rows); each rowid range bound keeps 1/4 of axis 0;
//   - LIMIT and OFFSET are ignored (their values are unknown).
//
// Selected is the product of the per-axis counts s_d. Rows and Chunks
// assume the selection along each axis is chunk-aligned: ceil(s_d/chunk_d)
// chunks (at most the grid) of full extent (at most the axis size). With
// no usable constraint Rows = Selected = Elements and Chunks = NumChunks.
func (g *Geometry) Estimate(cs []Constraint) Estimate {
	if g.total == 0 {
		return Estimate{}
	}
	var s [MaxRank]int64
	copy(s[:g.rank], g.shape[:g.rank])
	return g.estimate(s, cs)
}

// Estimate prices further constraints cs, whose values are not known,
// within the selection of p (made from constraints whose values are
// known): the heuristics of [Geometry.Estimate] starting from p's box
// instead of the whole array. With no constraint it is the box's volume
// in the same chunk-aligned terms (an empty plan gives zeros).
func (p *Plan) Estimate(cs []Constraint) Estimate {
	if p.Empty() {
		return Estimate{}
	}
	var s [MaxRank]int64
	for d := range p.rank {
		s[d] = p.hi[d] - p.lo[d]
	}
	return p.g.estimate(s, cs)
}

// estimate applies the heuristics of Estimate to per-axis counts s.
func (g *Geometry) estimate(s [MaxRank]int64, cs []Constraint) Estimate {
	rowEq := false
	for _, c := range cs {
		if c.Op == OpLimit || c.Op == OpOffset || g.Usable(c.Target, c.Op)&Prunes == 0 {
			continue
		}
		d := c.Target.Axis
		if c.Target.Kind == KindRowID {
			if c.Op == OpEQ {
				rowEq = true
				continue
			}
			d = 0
		}
		if c.Op == OpEQ {
			s[d] = 1
		} else {
			s[d] = max(1, s[d]/rangeFactor)
		}
	}
	e := Estimate{Rows: 1, Selected: 1, Chunks: 1}
	for d := range g.rank {
		chunk := g.chunk[d]
		if rowEq {
			e.Rows *= min(chunk, g.shape[d])
			e.Axis[d] = 1
			continue
		}
		e.Axis[d] = s[d]
		n := s[d]/chunk + min(s[d]%chunk, 1)
		n = min(n, g.grid[d])
		rows, ok := mulNonNeg(n, chunk)
		if !ok || rows > g.shape[d] {
			rows = g.shape[d]
		}
		e.Rows *= rows
		e.Selected *= s[d]
		e.Chunks *= n
	}
	return e
}
