package vtab

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// Typed coordinate labels. An axis whose every label reads as a number
// (planner.ParseLabelNumber: a strict decimal grammar, no leading zeros)
// has an INTEGER or REAL <dim>_label column in the cells and aggregate
// tables; tet_coords keeps every label as TEXT. Such a column compares as
// SQLite compares any numeric column, so its terms get numeric affinity
// like dim terms do, and the planner resolves them exactly to index
// ranges whether the labels ascend or descend.

// labelColumnDecl is the declared type of axis ax's label column.
func (t *arrayTable) labelColumnDecl(ax int, timeLabels bool) string {
	switch t.geom.LabelType(ax) {
	case planner.LabelInteger:
		return "INTEGER"
	case planner.LabelReal:
		return "REAL"
	}
	return labelDecl(t.info.Labels[ax], timeLabels)
}

// numericLabel reports whether axis ax has a numeric label column.
func (t *arrayTable) numericLabel(ax int) bool {
	lt := t.geom.LabelType(ax)
	return lt == planner.LabelInteger || lt == planner.LabelReal
}

// writeLabel writes label i of axis ax as its column's type.
func (t *arrayTable) writeLabel(r *sqlitevt.Result, ax int, i int64) {
	switch t.geom.LabelType(ax) {
	case planner.LabelInteger:
		r.Int64(t.geom.LabelInt(ax, i))
	case planner.LabelReal:
		r.Float64(t.geom.LabelReal(ax, i))
	default:
		r.Text(t.info.Labels[ax][i])
	}
}

// encode names a target in idxStr: a label of a numeric axis is "n<axis>"
// so that Filter applies numeric affinity to its argument (argSpec.constraint).
func (t *arrayTable) encode(tg planner.Target) string {
	if tg.Kind == planner.KindLabel && t.numericLabel(tg.Axis) {
		return fmt.Sprintf("n%d", tg.Axis)
	}
	return encodeTarget(tg)
}

// labelUsable reports whether BestIndex may pass a label term to the
// planner: a TEXT label only under the BINARY collation (see isBinary); a
// numeric one always, since a collation orders only TEXT against TEXT and
// numeric affinity leaves no TEXT on a numeric column's side.
func (t *arrayTable) labelUsable(tg planner.Target, c *sqlitevt.Constraint) bool {
	return tg.Kind != planner.KindLabel || t.numericLabel(tg.Axis) || isBinary(c)
}

// omitLabel reports whether a label term the planner takes may be left
// out of SQLite's re-check: on a numeric axis when the planner resolves
// the operator exactly for every number (numeric affinity makes every
// argument a number or NULL); TEXT labels are always re-checked, since
// a number compares with TEXT by affinity the vtab cannot see.
func (t *arrayTable) omitLabel(tg planner.Target, op planner.Op) bool {
	return t.numericLabel(tg.Axis) && t.geom.Usable(tg, op)&planner.ExactNumeric != 0
}

// labelMatch is "label g of axis d op v" for an aggregate's scan over the
// labels: numerically on a numeric axis (v already has numeric affinity),
// else as labelMatches compares TEXT.
func labelMatch(geom *planner.Geometry, labels [][]string, d int, g int64, op planner.Op, v any) (match, sure bool) {
	if m, ok := geom.LabelMatch(d, g, op, v); ok {
		return m, true
	}
	return labelMatches(labels[d][g], op, v)
}
