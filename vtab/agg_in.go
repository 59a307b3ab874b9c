package vtab

import (
	"slices"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// IN lists read whole (see sqlitevt.InLister). An aggregate
// folds every listed value of an axis into the same result rows, instead
// of running once per value: "station_label IN ('a','b')" gives one row
// over both stations. The list becomes the exact set of indices it
// selects on its axis; the plan is narrowed to the set's hull so that
// only chunks that may hold them are read, and the axis selection is
// then cut down to the set.

// inTerm is one IN list read whole.
type inTerm struct {
	target planner.Target
	idx    []int64 // selected indices on the axis, sorted, distinct
}

// InListColumn implements sqlitevt.InLister: IN lists on dim and label
// columns are read whole, and on the value column too, so that one is
// refused (addValueTerm) rather than run once per listed value.
func (t *aggTable) InListColumn(col int) bool { return col >= 0 && col < t.first || col == t.valueCol }

// inIndices returns the indices of axis tg.Axis that equal one of vals,
// planning each value as "tg = v" so that the semantics are those of a
// single equality (affinity, NULL, labels the planner cannot resolve).
func (c *aggCursor) inIndices(tg planner.Target, vals sqlitevt.InList) ([]int64, error) {
	var p planner.Plan
	var out []int64
	a := tg.Axis
	for _, v := range vals {
		if tg.Kind == planner.KindDim || c.t.numericLabel(a) {
			v, _ = numericAffinity(v, planner.OpEQ)
		}
		if err := p.Reset(c.t.geom, []planner.Constraint{{Target: tg, Op: planner.OpEQ, Value: v}}); err != nil {
			return nil, err
		}
		if p.Empty() {
			continue
		}
		lo, hi := p.Interval(a)
		exact := tg.Kind != planner.KindLabel || p.Honoured(0)
		for g := lo; g < hi; g++ {
			// A literal IN list compares under the affinity of its left
			// side, the label column's, but IN (SELECT a numeric
			// column) compares numerically, and the values do not say
			// which: a number whose answer depends on it is refused, as
			// for "label = number" (ambiguousLabel).
			if exact {
				out = append(out, g)
				continue
			}
			m, sure := labelMatch(c.t.geom, c.t.info.Labels, a, g, planner.OpEQ, v)
			if !sure {
				return nil, ambiguousLabel(c.t.info.Labels[a][g], planner.Constraint{Target: tg, Op: planner.OpEQ, Value: v})
			}
			if m {
				out = append(out, g)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// hull returns constraints that narrow the plan to the indices of the
// IN terms: their range on each axis, or nothing at all for an empty set.
func hull(terms []inTerm) []planner.Constraint {
	var cs []planner.Constraint
	for _, it := range terms {
		d := planner.Dim(it.target.Axis)
		if len(it.idx) == 0 {
			return append(cs, planner.Constraint{Target: d, Op: planner.OpLT, Value: int64(0)})
		}
		cs = append(cs, planner.Constraint{Target: d, Op: planner.OpGE, Value: it.idx[0]},
			planner.Constraint{Target: d, Op: planner.OpLE, Value: it.idx[len(it.idx)-1]})
	}
	return cs
}

// restrict cuts the axis selections down to the IN terms' index sets.
func restrict(sel []scan.AxisSel, terms []inTerm) {
	for _, it := range terms {
		d := it.target.Axis
		old := sel[d]
		sel[d] = scan.AxisSel{}
		i := 0
		for _, g := range it.idx {
			for i < len(old.Runs) && old.Runs[i].Hi <= g {
				i++
			}
			if i < len(old.Runs) && old.Runs[i].Lo <= g {
				sel[d].Add(g, g+1)
			}
		}
	}
}
