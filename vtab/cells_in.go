package vtab

import (
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

// maxInListSlot is how many constraints SQLite can hand over IN lists
// whole for (sqlite3_vtab_in: the first 32).
const maxInListSlot = 32

// InListColumn implements sqlitevt.InLister: the TEXT label columns.
func (t *cellsTable) InListColumn(col int) bool {
	tg, ok := t.target(col)
	return ok && tg.Kind == planner.KindLabel && !t.numericLabel(tg.Axis)
}

// inHull returns constraints that narrow axis tg.Axis to the indices the
// values of an IN list on its TEXT label column may select: those each
// TEXT value selects (planned as "label = value"); nothing narrows when
// a value is not TEXT (a number may equal a label by either affinity).
func (t *arrayTable) inHull(tg planner.Target, vals sqlitevt.InList) []planner.Constraint {
	var p planner.Plan
	a := tg.Axis
	lo, hi := int64(-1), int64(-1)
	for _, v := range vals {
		s, ok := v.(string)
		if !ok {
			if v == nil {
				continue // NULL selects nothing
			}
			return nil
		}
		if err := p.Reset(t.geom, []planner.Constraint{{Target: tg, Op: planner.OpEQ, Value: s}}); err != nil {
			return nil
		}
		if p.Empty() {
			continue
		}
		l, h := p.Interval(a)
		if lo < 0 || l < lo {
			lo = l
		}
		hi = max(hi, h)
	}
	d := planner.Dim(a)
	if lo < 0 { // nothing selected
		return []planner.Constraint{{Target: d, Op: planner.OpLT, Value: int64(0)}}
	}
	return []planner.Constraint{{Target: d, Op: planner.OpGE, Value: lo}, {Target: d, Op: planner.OpLT, Value: hi}}
}
