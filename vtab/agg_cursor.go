package vtab

import (
	"fmt"
	"time"

	"github.com/tetsql/tetsql/internal/sqlitevt"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/planner"
)

// aggCursor computes the whole result in Filter, then walks its rows.
type aggCursor struct {
	t      *aggTable
	plan   planner.Plan
	cons   []planner.Constraint
	by     any
	keep   []bool
	coarse []int64   // per axis, the block size of a coarsened axis (nil: none)
	kept   []int     // kept axes, in order
	values [][]int64 // per kept axis, the group keys: selected global indices (index/k when coarsened)
	groups []fold.Stats
	fixed  []int64 // per axis: the one index an equality selects, or -1
	g      int     // current group
	eof    bool
	mem    scan.Budget // this Filter's buffers, see reserve
	held   int64       // what mem holds against the session's limit until the next Filter or Close
	// the chunks holding selected elements, and how many (scan.ChunkSpans)
	spans   [][]scan.ChunkSpan
	nchunks int64

	// the costly columns (agg_quantile.go): q's value, and the second pass
	q             float64
	qArg          any
	hasQ          bool
	picker        *fold.Picker
	median, quant pickCache

	vterms  []scan.ValueTerm // value terms, evaluated by the fold (agg_value.go)
	rowids  rowidBlocks      // rowid blocks by row identity (agg_rowid.go)
	rowBase int64            // this Filter's block

	started time.Time
	stats   ScanStats
}

// Filter selects, folds every intersecting chunk (in parallel) and
// positions on the first output row.
func (c *aggCursor) Filter(idxNum int, idxStr string, vals []sqlitevt.Value) error {
	panicPoint("xFilter")
	if c.started.IsZero() {
		c.started = time.Now()
	}
	c.stats.Filters++
	c.eof, c.g, c.groups, c.by = true, 0, nil, nil
	c.picker, c.hasQ, c.qArg = nil, false, nil
	specs, err := parseAggSpecs(idxStr)
	if err != nil || len(specs) != len(vals) {
		return fmt.Errorf("tet: %s: bad plan %q", c.t.qualified, idxStr)
	}
	c.cons, c.vterms = c.cons[:0], c.vterms[:0]
	var ins []inTerm
	for i, sp := range specs {
		v := vals[i]
		if sp.kind == 'b' {
			c.by = v
			continue
		}
		if sp.kind == 'q' {
			if c.q, err = parseQ(v); err != nil {
				return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
			}
			c.qArg, c.hasQ = v, true
			continue
		}
		if sp.kind == 'v' {
			if err := c.addValueTerm(sp.op, v); err != nil {
				return err
			}
			continue
		}
		if l, ok := v.(sqlitevt.InList); ok && sp.op == planner.OpEQ {
			idx, err := c.inIndices(sp.target, l)
			if err != nil {
				return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
			}
			ins = append(ins, inTerm{sp.target, idx})
			continue
		}
		if cn, ok := sp.constraint(v); ok {
			c.cons = append(c.cons, cn)
		}
	}
	c.cons = append(c.cons, hull(ins)...)
	if c.keep, c.coarse, err = c.t.parseBy(c.by); err != nil {
		return err
	}
	if err := c.plan.Reset(c.t.geom, c.cons); err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
	}
	sel, err := selectAxes(&c.plan, c.cons, c.t.info.Labels)
	if err != nil {
		err = fmt.Errorf("tet: %s: %w", c.t.qualified, err)
		c.t.session.setErr(err)
		return err
	}
	restrict(sel, ins)
	sizes := make([]int64, len(sel))
	for d := range sel {
		sizes[d] = sel[d].N
		if k := blockOf(c.coarse, d); k > 1 && c.keep[d] {
			sizes[d] = sel[d].BlockCount(k)
		}
	}
	stride, ngroups := fold.Strides(sizes, c.keep)
	// Size every buffer from the plan before allocating any (memlimit.go).
	if err := c.reserve(ngroups, sel); err != nil {
		return err
	}
	var blocks [][]int64 // the group keys of coarsened axes
	for d := range sel {
		if k := blockOf(c.coarse, d); k > 1 && c.keep[d] {
			if blocks == nil {
				blocks = make([][]int64, len(sel))
			}
			blocks[d] = sel[d].Blocks(k)
		}
	}
	c.kept, c.values = c.kept[:0], c.values[:0]
	for d := range sel {
		if c.keep[d] && blocks != nil && blocks[d] != nil {
			c.kept = append(c.kept, d)
			c.values = append(c.values, blocks[d])
		} else if c.keep[d] {
			c.kept = append(c.kept, d)
			vals := make([]int64, 0, sel[d].N)
			for _, r := range sel[d].Runs {
				for g := r.Lo; g < r.Hi; g++ {
					vals = append(vals, g)
				}
			}
			c.values = append(c.values, vals)
		}
	}
	// An axis pinned to one index by an equality reports that index even
	// when not grouped: an IN list runs one Filter per value, and each
	// result row then says which value it is for.
	c.fixed = c.fixed[:0]
	for d := range sel {
		c.fixed = append(c.fixed, -1)
		for _, cn := range c.cons {
			if cn.Op == planner.OpEQ && cn.Target.Axis == d && cn.Target.Kind != planner.KindRowID &&
				sel[d].N == 1 && !c.keep[d] {
				c.fixed[d] = sel[d].Runs[0].Lo
			}
		}
		for _, it := range ins { // an IN list that selects one index pins it too
			if it.target.Axis == d && sel[d].N == 1 && !c.keep[d] {
				c.fixed[d] = sel[d].Runs[0].Lo
			}
		}
	}
	size, err := gridSize(c.t.info.Shape, c.keep, c.coarse)
	if err == nil {
		c.rowBase, err = c.rowids.block(c.keep, c.coarse, sel, max(size, 1), c.qKey())
	}
	if err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
	}
	spec := scan.FoldSpec{Reader: c.t.reader, Session: c.t.session.engine(), Sel: sel, Stride: stride, Groups: ngroups,
		Spans: c.spans, Chunks: c.nchunks, Free: c.mem.Left(), Blocks: blocks, Terms: c.vterms}
	if blocks != nil {
		spec.Coarse = c.coarse
	}
	groups, err := scan.Fold(&spec, &c.stats)
	if err != nil {
		c.t.session.setErr(err) // the driver returns it whole (errors.Is)
		return err
	}
	// Open checked the file; a file rewritten in place while the chunks
	// were folded would have given groups of both versions.
	if err := c.t.arr.Source().CheckUnchanged(); err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
	}
	c.groups = groups
	if err := c.pickPass(&spec, idxNum); err != nil {
		return err
	}
	c.seek()
	return nil
}

// seek moves to the first group at or after c.g that has elements (a
// query without grouping always has its one row).
func (c *aggCursor) seek() {
	for ; c.g < len(c.groups); c.g++ {
		s := &c.groups[c.g]
		if len(c.kept) == 0 || s.Count()+s.NullCount() > 0 && (len(c.vterms) == 0 || s.Count() > 0) {
			c.eof = false
			c.stats.Rows++
			return
		}
	}
	c.eof = true
}
