package vtab

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/internal/sqlitevt"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/planner"
)

// selectAxes turns a plan plus its constraints into exact per-axis
// selections. The planner's box is exact for dims; label terms the plan
// does not honour (ranges on unsorted labels, duplicated labels, numbers
// or blobs against labels) are evaluated on every label of the box. A
// number whose comparison with a label of the box depends on the
// number's affinity (see labelMatches) fails with ErrAmbiguousLabel.
func selectAxes(p *planner.Plan, cons []planner.Constraint, labels [][]string) ([]scan.AxisSel, error) {
	sel := make([]scan.AxisSel, p.Rank())
	for d := range sel {
		lo, hi := p.Interval(d)
		exact := true
		for i, c := range cons {
			if c.Target.Kind == planner.KindLabel && c.Target.Axis == d && !p.Honoured(i) {
				exact = false
			}
		}
		if exact || p.Empty() {
			if lo < hi && !p.Empty() {
				sel[d].Add(lo, hi)
			}
			continue
		}
		for g := lo; g < hi; g++ {
			ok := true
			for _, c := range cons {
				if c.Target.Kind == planner.KindLabel && c.Target.Axis == d {
					m, sure := labelMatch(p.Geometry(), labels, d, g, c.Op, c.Value)
					if !sure {
						return nil, ambiguousLabel(labels[d][g], c)
					}
					ok = ok && m
				}
			}
			if ok {
				sel[d].Add(g, g+1)
			}
		}
	}
	return sel, nil
}

// ErrAmbiguousLabel is matched (errors.Is) by the refusal of an aggregate
// whose WHERE compares a number with a label when the answer depends on
// the number's type affinity (a literal compares as TEXT, a CAST or a
// numeric column numerically), which a virtual table cannot see.
var ErrAmbiguousLabel = errors.New("a number compared with a label: the answer depends on the number's type affinity, which an aggregate table cannot see")

func ambiguousLabel(label string, c planner.Constraint) error {
	return fmt.Errorf("label %q %s %v: %w; compare the label with TEXT (e.g. '%v'), or use the cells table", label, opNames[c.Op], c.Value, ErrAmbiguousLabel, c.Value)
}

// labelMatches compares a TEXT label with a value as SQLite does for a
// TEXT column: NULL matches nothing, a BLOB sorts after every TEXT value.
// A number is compared as SQLite would compare it under either affinity
// it may have, since a virtual table sees the value and not the
// expression: without affinity (a literal: `label > 3`) it gets the
// column's TEXT affinity and compares as its SQL text; with a numeric
// affinity (`label > CAST(3 AS INTEGER)`, a numeric column in a join)
// the label gets NUMERIC affinity instead, becoming a number when it
// reads as one and otherwise sorting after every number. sure is false
// when the two answers differ for this label.
func labelMatches(label string, op planner.Op, v any) (match, sure bool) {
	var s string
	var num sqlNum
	switch x := v.(type) {
	case string:
		return cmpMatches(strings.Compare(label, x), op), true
	case int64:
		s, num = strconv.FormatInt(x, 10), sqlNum{I: x}
	case float64:
		s, num = sqlFloatText(x), sqlNum{F: x, Real: true}
	case []byte:
		return op == planner.OpLT || op == planner.OpLE, true
	default:
		return false, true
	}
	asText := cmpMatches(strings.Compare(label, s), op)
	c := 1 // a label that stays TEXT sorts after every number
	switch n := labelNumber(label); {
	case n == nil:
	case !n.Real || !math.IsNaN(n.F):
		c = scan.CmpNum(*n, num)
	}
	return asText, asText == cmpMatches(c, op)
}

// labelNumber is the label under NUMERIC affinity, or nil if it stays TEXT.
func labelNumber(label string) *sqlNum {
	v, ok := parseNumeric(label)
	if !ok {
		return nil
	}
	switch x := v.(type) {
	case int64:
		return &sqlNum{I: x}
	case float64:
		return &sqlNum{F: x, Real: true}
	}
	return nil
}

// cmpMatches applies op to a comparison result c (-1, 0, 1).
func cmpMatches(c int, op planner.Op) bool {
	switch op {
	case planner.OpEQ:
		return c == 0
	case planner.OpLT:
		return c < 0
	case planner.OpLE:
		return c <= 0
	case planner.OpGT:
		return c > 0
	}
	return c >= 0
}

// sqlFloatText renders a REAL the way SQLite converts it to TEXT for a
// comparison with a TEXT column (see sqlitevt.FloatText).
func sqlFloatText(f float64) string { return sqlitevt.FloatText(f) }
