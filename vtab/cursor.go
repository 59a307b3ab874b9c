package vtab

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// cellsCursor translates one cells scan between SQLite and the engine:
// Filter turns argument values into a plan, scan.CellScan walks it, and
// Column turns positions and elements into SQL values.
type cellsCursor struct {
	t      *cellsTable
	s      scan.CellScan
	plan   planner.Plan
	cons   []planner.Constraint
	specs  []argSpec
	spec   string           // idxStr that specs were parsed from
	idxNum int              // of the current Filter
	vterms []scan.ValueTerm // value terms, evaluated exactly by the scan
	topk   bool             // this Filter is a top-k: rows come from tk
	tk     *topkCursor      // the rows of a top-k plan (cells_topk.go), made by its first Filter
	inHull bool             // an IN list narrowed this Filter to a superset SQLite re-checks
	// runs are the index runs of an IN list still to scan along runAxis
	// (cells_in.go); cons[:base] are the Filter's other constraints.
	runs      [][2]int64
	runAxis   int
	base      int
	remaining int64 // the Filter's row limit (-1: none), for every run
	// drained: an exporter took this Filter's rows (export.go); SQLite
	// sees none.
	drained bool
}

// Filter plans the chunks for one set of argument values. SQLite calls it
// once per value of an IN list; statistics add up over the calls.
func (c *cellsCursor) Filter(idxNum int, idxStr string, vals []sqlitevt.Value) error {
	panicPoint("xFilter")
	c.s.Begin()
	c.topk, c.drained, c.idxNum = false, false, idxNum
	if idxStr != c.spec || c.specs == nil {
		specs, err := parseIdxStr(idxStr)
		if err != nil {
			return err
		}
		c.specs, c.spec = specs, idxStr
	}
	if len(vals) != len(c.specs) {
		return fmt.Errorf("tet: %s: plan expects %d arguments, got %d", c.t.qualified, len(c.specs), len(vals))
	}
	c.cons, c.vterms, c.inHull, c.runs = c.cons[:0], c.vterms[:0], false, nil
	var offset int64
	remaining := int64(-1)
	none := false // a value term no element satisfies
	for i, sp := range c.specs {
		v := vals[i]
		switch sp.kind {
		case 'L':
			n, ok := v.(int64)
			if !ok {
				return nil // non-integer LIMIT: SQLite errors out itself
			}
			remaining = max(n, 0)
			if n < 0 {
				remaining = -1 // LIMIT -1 means no limit
			}
			continue
		case 'O':
			if n, ok := v.(int64); ok && n > 0 {
				offset = n
			}
			continue
		case 'N':
			continue // value IS NOT NULL, a top-k's (idxNotNull)
		case 'v':
			switch vt, k := newValueTerm(sp.op, v); k {
			case termUse:
				c.vterms = append(c.vterms, vt)
			case termNone:
				none = true
			}
			continue
		}
		if l, ok := v.(sqlitevt.InList); ok {
			c.inHull = true
			runs, ok := c.t.inRuns(sp.target, l)
			if ok && c.runs == nil && idxNum&(idxTopK|idxOrdered) == 0 {
				// Run by run (nextRun): only the chunks of the listed labels.
				c.runs, c.runAxis = runs, sp.target.Axis
				if len(runs) == 0 {
					none = true
				}
				continue
			}
			c.cons = append(c.cons, hullCons(sp.target.Axis, runs, ok)...)
			continue
		}
		if cn, ok := sp.constraint(v); ok {
			c.cons = append(c.cons, cn)
		}
	}
	c.base = len(c.cons)
	if none {
		c.runs = nil // nothing to scan in any run
	}
	c.remaining = remaining
	if len(c.runs) > 0 {
		c.cons = append(c.cons, runCons(c.runAxis, c.runs[0])...)
		c.runs = c.runs[1:]
	}
	if err := c.plan.Reset(c.t.geom, c.cons); err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
	}
	if none {
		remaining = 0
	}
	if idxNum&idxTopK != 0 {
		return c.startTopK(idxNum&idxDesc != 0, idxNum&idxRecheck != 0, idxNum&idxNotNull != 0, offset, remaining)
	}
	if err := c.s.Start(&c.plan, offset, remaining, c.vterms); err != nil {
		return err
	}
	if err := c.nextRun(); err != nil {
		return err
	}
	return c.export()
}

// Next moves to the next row. A read error is kept and reported through
// Column (which carries a message to SQLite) and the following Next.
func (c *cellsCursor) Next() error {
	if c.drained {
		return nil
	}
	if c.topk {
		return c.topkNext()
	}
	if err := c.s.Next(); err != nil {
		return err
	}
	return c.nextRun()
}

// Step is Next then Eof (sqlitevt.Stepper): xNext makes one call per row
// into the cursor instead of two.
func (c *cellsCursor) Step() (bool, error) {
	switch {
	case c.drained:
		return true, nil
	case c.topk:
		err := c.topkNext()
		return c.tk.eof(), err
	}
	return c.scanStep()
}

// scanStep is Step of a plain scan: the next row, run after run.
func (c *cellsCursor) scanStep() (bool, error) {
	eof, err := c.s.Step()
	if eof && err == nil && len(c.runs) > 0 {
		err = c.nextRun()
		eof = c.s.Eof()
	}
	return eof, err
}

// Eof reports the end of rows; after a read error it stays false so that
// SQLite asks for a column and receives the error message.
func (c *cellsCursor) Eof() bool {
	if c.drained {
		return true
	}
	if c.topk {
		return c.tk.eof()
	}
	return c.s.Eof()
}

// Rowid is the element's global row-major index.
func (c *cellsCursor) Rowid() (int64, error) {
	panicPoint("xRowid")
	if c.topk {
		return c.tk.tk.Row(c.tk.pos), nil
	}
	return c.s.Rowid(), c.s.Err()
}

// Close records the scan's statistics and unpins the source.
func (c *cellsCursor) Close() error {
	panicPoint("xClose")
	if c.tk != nil {
		c.t.session.engine().Release(&c.tk.held)
	}
	c.s.Close() // records the statistics on the session
	if c.s.Started() {
		c.t.conn.record(c.s.Stats)
	}
	return nil
}
