package vtab

import (
	"fmt"
	"strings"

	"github.com/tetsql/tetsql/internal/sqlitevt"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/planner"
)

// aggResults are the result columns of an aggregate table, after the dim
// and label columns and before the hidden "by" column.
var aggResults = []string{"count", "null_count", "sum", "mean", "min", "max", "var", "std",
	"median", "quantile", "argmin", "argmax"}

// aggTable is the <dataset>_agg companion: reductions over a selection
// of the dataset, optionally grouped by axes, computed over whole chunks.
//
// Every dim and label term it is offered with =, <, <=, >, >= (and so
// BETWEEN and IN) selects elements before reducing and is consumed
// exactly (SQLite must not re-check it against the output rows, whose
// ungrouped dims are NULL). Other terms apply to the output rows.
type aggTable struct {
	arrayTable
	first    int // first result column
	byCol    int
	qCol     int // the hidden q column, right after by
	valueCol int // the HIDDEN value column, last: value terms select elements (agg_value.go)
}

func newAgg(ctx sqlitevt.Context, a tableArgs, h *scan.Handle) (*aggTable, error) {
	at, cols, err := newArrayTable(a, h)
	if err != nil {
		return nil, err
	}
	ds := at.info
	t := &aggTable{arrayTable: at, first: len(cols)}
	sum := "INTEGER"
	if ds.DType.IsFloat() {
		sum = "REAL"
	}
	vt := valueType(ds.DType)
	cols = append(cols, "count INTEGER", "null_count INTEGER", "sum "+sum, "mean REAL",
		"min "+vt, "max "+vt, "var REAL", "std REAL",
		"median REAL", "quantile REAL", "argmin INTEGER", "argmax INTEGER", "by TEXT HIDDEN", quoteIdent(t.qColumnName())+" REAL HIDDEN")
	t.byCol, t.qCol = len(cols)-2, len(cols)-1
	cols = append(cols, "value "+vt+" HIDDEN")
	t.valueCol = len(cols) - 1
	if err := ctx.Declare("CREATE TABLE x(" + strings.Join(cols, ", ") + ")"); err != nil {
		return nil, fmt.Errorf("tet: table %q: %w", a.table, err)
	}
	return t, nil
}

// tooManyToOmit reports whether a plan asks to omit a term SQLite will
// test again anyway: SQLite keeps omit only for the terms passed in the
// first 16 arguments (LIMIT and OFFSET are handled apart).
func tooManyToOmit(info *sqlitevt.IndexInfo) bool {
	for i := range info.Constraints {
		c := &info.Constraints[i]
		if c.Omit && c.ArgIndex >= 16 && c.Op != sqlitevt.OpLIMIT && c.Op != sqlitevt.OpOFFSET {
			return true
		}
	}
	return false
}

// tooManyTerms refuses an aggregate plan that consumes more terms than
// SQLite lets it omit: SQLite would test the others again on the output
// rows, where ungrouped dims are NULL. SQLite then tries the table's
// other plans (a join term left to the outer loop, say); a statement
// left with none fails while it is prepared, with the reason kept for the
// driver, so its rewrite of a cells query onto _agg falls back to the
// cells table.
func (t *arrayTable) tooManyTerms() error {
	t.session.setErr(fmt.Errorf("tet: %s: more than 16 conditions to apply: SQLite would test those past the 16th again on the output rows, "+
		"where ungrouped dims are NULL; combine conditions (BETWEEN, IN) or query the cells table", t.qualified))
	return sqlitevt.ErrUnusablePlan
}

// target maps a dim or label column to a planner target.
func (t *aggTable) target(col int) (planner.Target, bool) {
	switch {
	case col >= 0 && col < len(t.dims):
		return planner.Dim(col), true
	case col >= len(t.dims) && col < t.first:
		return planner.Label(t.labelAxis[col-len(t.dims)]), true
	}
	return planner.Target{}, false
}

// BestIndex consumes "by = ?", "q = ?" and every dim and label comparison (labels
// only under the BINARY collation: a label term under another collation
// is left to SQLite and so filters the output rows); see aggTable.
// idxStr lists argv entries as for cells tables, plus "b" for the by
// argument and "q" for the q argument; value terms select elements
// (agg_value.go); idxNum flags the costly result columns the query uses
// (agg_quantile.go). A by, q or value term that is not usable prices the
// plan out.
func (t *aggTable) BestIndex(info *sqlitevt.IndexInfo) error {
	panicPoint("xBestIndex")
	var parts []string
	var cons []planner.Constraint
	var at []int // index in info.Constraints of each of cons
	var by any
	byKnown, byUnusable := false, false
	for i := range info.Constraints {
		c := &info.Constraints[i]
		if c.Column == t.byCol || c.Column == t.qCol {
			if c.Op != sqlitevt.OpEQ || !c.Usable {
				byUnusable = true
				continue
			}
			c.ArgIndex, c.Omit = len(parts), true
			if c.Column == t.byCol {
				parts = append(parts, "b")
				by, byKnown = info.RHS(i)
			} else {
				parts = append(parts, "q")
			}
			continue
		}
		if c.Column == t.valueCol {
			op, ok := mapOp(c.Op)
			switch {
			case ok && c.Usable:
				c.ArgIndex, c.Omit = len(parts), true
				parts = append(parts, "v"+opNames[op])
			case ok:
				// Left to SQLite it would filter the output rows, whose
				// value is NULL: price the plan out, as for by.
				byUnusable = true
			}
			continue
		}
		tg, ok1 := t.target(c.Column)
		op, ok2 := mapOp(c.Op)
		if !c.Usable || !ok1 || !ok2 || !t.labelUsable(tg, c) {
			continue
		}
		c.ArgIndex, c.Omit = len(parts), true
		parts = append(parts, t.encode(tg)+opNames[op])
		cons, at = append(cons, planner.Constraint{Target: tg, Op: op}), append(at, i)
	}
	info.IdxNum, info.IdxStr = idxConstraints|t.costlyUsed(info.ColUsed), strings.Join(parts, ",")
	if tooManyToOmit(info) {
		return t.tooManyTerms()
	}
	info.EstimatedRows = max(t.aggGroups(by, byKnown, t.estimate(info, at, cons)), 1)
	info.EstimatedCost = t.cost(cons)
	if byUnusable {
		info.EstimatedCost, info.EstimatedRows = 1e300, 1<<62
	}
	return nil
}

// cost prices a plan that consumes cons. Every plan costs between 2/3
// and 1 times a fold of the whole array, more constraints costing less,
// so that the sum of any two plans exceeds any single plan: SQLite then
// never prefers its multi-index OR plan (one scan per OR term, each
// offered only that term's constraints) to the plan over the other
// terms. That plan would be wrong for _agg: a term ANDed with the OR on
// an ungrouped dim would not select elements in the per-term scans but
// filter their output rows, where that dim is NULL. Without it, an OR is
// never consumed and filters the output rows, exactly on grouped dims
// (docs/SQL.md, "Aggregate tables").
func (t *aggTable) cost(cons []planner.Constraint) float64 {
	fold := func(e planner.Estimate) float64 { return float64(e.Rows)/64 + float64(e.Chunks)*chunkCost + 1 }
	whole := fold(t.geom.Estimate(nil))
	return whole*2/3 + min(fold(t.geom.Estimate(cons)), whole)/3
}

// Open starts a cursor; it pins the source until Close.
func (t *aggTable) Open() (sqlitevt.Cursor, error) {
	panicPoint("xOpen")
	if err := t.session.engine().Pin(t.arr.Source(), t.qualified); err != nil {
		return nil, err
	}
	c := &aggCursor{t: t}
	c.stats.Table, c.stats.Dataset, c.stats.ChunksTotal = t.qualified, t.info.Name, t.info.ChunkCount()
	return c, nil
}

// Disconnect releases the table's file handle.
func (t *aggTable) Disconnect() error { return t.release() }

// Destroy is Disconnect: dropping the table never touches the file.
func (t *aggTable) Destroy() error { return t.release() }

// parseBy resolves the by argument to a keep mask over the axes and,
// when an item coarsens ('time/5'), the block size of each axis (nil
// when none does; see parseByItem).
func (t *aggTable) parseBy(v any) ([]bool, []int64, error) {
	keep := make([]bool, t.geom.Rank()) // the engine's axes: a 0-d array's one hidden axis included
	var coarse []int64
	s, _ := v.(string)
	if b, ok := v.([]byte); ok {
		s = string(b)
	}
	for _, item := range strings.Split(s, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		name, k, err := parseByItem(item)
		if t.isDim(item) { // a dim whose name holds a "/" is never coarsened
			name, k, err = strings.TrimSpace(item), 1, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("tet: %s: by: %w", t.qualified, err)
		}
		found := false
		for a, d := range t.dims {
			if !strings.EqualFold(d, name) {
				continue
			}
			if prev := blockOf(coarse, a); keep[a] && prev != k {
				return nil, nil, fmt.Errorf("tet: %s: by: dim %q named twice with different block sizes (%d and %d)", t.qualified, d, prev, k)
			}
			keep[a], found = true, true
			if k > 1 {
				if coarse == nil {
					coarse = make([]int64, t.geom.Rank())
				}
				coarse[a] = k
			}
		}
		if !found {
			return nil, nil, fmt.Errorf("tet: %s: by: unknown dim %q (dims: %s)", t.qualified, name, strings.Join(t.dims, ", "))
		}
	}
	return keep, coarse, nil
}
