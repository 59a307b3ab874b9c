package vtab

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// IN lists on the TEXT label columns of a cells table are read whole
// (sqlitevt.InLister) and left for SQLite to re-check whole. Run once
// per listed value instead, SQLite re-checks each value under the
// column's TEXT affinity, while the IN itself may compare numerically:
// label IN (SELECT an INTEGER column) holds for the label '01' and the
// value 1, and the per-value re-check would drop that row. The scan
// narrows the axis to the hull of the indices the list's TEXT values
// select, a superset SQLite then filters exactly.

// idxOrdered is the idxNum bit of a plan whose rows SQLite takes as
// already in ORDER BY order (cells_order.go): an IN list is then scanned
// as its hull, which keeps the scan's order, not run by run.
const idxOrdered = 1 << 7

// maxInListSlot is how many constraints SQLite can hand over IN lists
// whole for (sqlite3_vtab_in: the first 32).
const maxInListSlot = 32

// InListColumn implements sqlitevt.InLister: the TEXT label columns.
func (t *cellsTable) InListColumn(col int) bool {
	tg, ok := t.target(col)
	return ok && tg.Kind == planner.KindLabel && !t.numericLabel(tg.Axis)
}

// hullCons returns constraints that narrow axis a to the hull of runs
// (inRuns; none selects nothing), or nothing when the list cannot narrow
// it (ok false: a value that is not TEXT).
func hullCons(a int, runs [][2]int64, ok bool) []planner.Constraint {
	if !ok {
		return nil
	}
	d := planner.Dim(a)
	if len(runs) == 0 { // nothing selected
		return []planner.Constraint{{Target: d, Op: planner.OpLT, Value: int64(0)}}
	}
	return runCons(a, [2]int64{runs[0][0], runs[len(runs)-1][1]})
}

// inRuns returns the index runs of axis tg.Axis that the TEXT values of
// an IN list select, sorted and merged (empty: none), or ok false when
// the list holds a value that is not TEXT (a number may equal a label by
// either affinity: the whole axis).
func (t *arrayTable) inRuns(tg planner.Target, vals sqlitevt.InList) (runs [][2]int64, ok bool) {
	var p planner.Plan
	for _, v := range vals {
		s, isText := v.(string)
		if !isText {
			if v == nil {
				continue
			}
			return nil, false
		}
		if err := p.Reset(t.geom, []planner.Constraint{{Target: tg, Op: planner.OpEQ, Value: s}}); err != nil {
			return nil, false
		}
		if !p.Empty() {
			lo, hi := p.Interval(tg.Axis)
			runs = append(runs, [2]int64{lo, hi})
		}
	}
	slices.SortFunc(runs, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	// Runs that meet, or share a chunk along the axis, are one: a chunk is
	// read once (SQLite re-checks the rows between them anyway).
	chunk := max(t.info.ChunkShape[tg.Axis], 1)
	out := runs[:0]
	for _, r := range runs {
		if n := len(out); n > 0 && r[0]/chunk <= (out[n-1][1]-1)/chunk {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out, true
}

// runCons are the constraints holding axis a to run r.
func runCons(a int, r [2]int64) []planner.Constraint {
	d := planner.Dim(a)
	return []planner.Constraint{{Target: d, Op: planner.OpGE, Value: r[0]}, {Target: d, Op: planner.OpLT, Value: r[1]}}
}

// nextRun starts the scan of the next run of an IN list read whole
// (cursor.go), after the previous run's rows: one Filter's worth of
// statistics, so the extra starts do not count as Filters.
func (c *cellsCursor) nextRun() error {
	for len(c.runs) > 0 && c.s.Eof() && c.s.Err() == nil {
		r := c.runs[0]
		c.runs = c.runs[1:]
		c.cons = append(c.cons[:c.base], runCons(c.runAxis, r)...)
		if err := c.plan.Reset(c.t.geom, c.cons); err != nil {
			return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
		}
		c.s.Begin()
		c.s.Stats.Filters--
		// LIMIT and OFFSET are never consumed with a TEXT label term
		// (SQLite re-checks it); a limit of 0 (a value term nothing
		// satisfies) holds for every run.
		if err := c.s.Start(&c.plan, 0, c.remaining, c.vterms); err != nil {
			return err
		}
	}
	return nil
}
