package vtab

import (
	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// Row estimates for BestIndex. SQLite orders the loops of a join by the
// rows and cost each table reports, so both should match what the scan
// will do. The consumed terms whose right-hand values SQLite knows while
// planning (literals: sqlite3_vtab_rhs_value) are planned exactly as
// Filter will plan them; the others (a join column, a subquery, an IN
// list) are priced within that selection by the planner's heuristics
// (planner.Geometry.Estimate). Estimates never change a result, only
// which plan SQLite picks.

// estimate prices the consumed terms cons, cons[i] being
// info.Constraints[at[i]].
func (t *arrayTable) estimate(info *sqlitevt.IndexInfo, at []int, cons []planner.Constraint) planner.Estimate {
	if len(cons) != len(at) {
		return t.geom.Estimate(cons)
	}
	var known, unknown []planner.Constraint
	for i, c := range cons {
		v, ok := info.RHS(at[i])
		if !ok {
			unknown = append(unknown, c)
			continue
		}
		numeric := c.Target.Kind != planner.KindLabel || t.numericLabel(c.Target.Axis)
		sp := argSpec{target: c.Target, op: c.Op, kind: 'c', numeric: numeric}
		if cn, ok := sp.constraint(v); ok { // else the term selects every row
			known = append(known, cn)
		}
	}
	if len(unknown) == len(cons) {
		return t.geom.Estimate(cons)
	}
	var p planner.Plan
	if err := p.Reset(t.geom, known); err != nil {
		return t.geom.Estimate(cons)
	}
	if len(unknown) > 0 {
		return p.Estimate(unknown)
	}
	e := planner.Estimate{Rows: p.EstimatedRows(), Selected: p.SelectedRows(), Chunks: p.ChunkCount()}
	for d := range p.Rank() {
		lo, hi := p.Interval(d)
		e.Axis[d] = hi - lo
	}
	return e
}

// aggGroups estimates the output rows of an aggregate: 1 when no axis is
// grouped, else the product over the grouped axes of the indices expected
// to be selected (their blocks, ceil(n/k), on an axis coarsened by
// "dim/k"). by is the by argument when SQLite knows it while planning
// (known false: counted as ungrouped); it is read as Filter reads it
// (parseBy), and a by that Filter would refuse counts as ungrouped.
func (t *aggTable) aggGroups(by any, known bool, e planner.Estimate) int64 {
	if !known {
		return 1
	}
	keep, coarse, err := t.parseBy(by)
	if err != nil {
		return 1
	}
	var rows int64 = 1
	for a := range keep {
		if !keep[a] {
			continue
		}
		groups := groupExtent(e.Axis[a], coarse, a)
		if groups > 0 && rows > (1<<62)/groups {
			return 1 << 62
		}
		rows *= groups
	}
	return rows
}
