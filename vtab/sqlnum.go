package vtab

import (
	"math"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/planner"
)

// sqlNum is a numeric SQL value: an INTEGER I, or a REAL F when Real.
type sqlNum = scan.Num

// termKind is what a value term's argument makes of the term.
type termKind uint8

const (
	termUse  termKind = iota // a numeric comparison: the scan evaluates it
	termNone                 // true for no element: the query is empty
)

// newValueTerm converts a value term's argument as SQLite compares it
// with a column of numeric affinity (the value column is declared
// FLOAT32, FLOAT16, REAL or an integer type, see valueType): INTEGER and REAL as they are, TEXT that reads as a
// number converted as numeric affinity converts it (sqliteReal). TEXT
// that stays TEXT, and BLOB, sort after every number: "value < x" and
// "value <= x" then hold for every element that is not NULL (the term
// becomes "value <= +Inf"), the others for none. NULL (and a NaN REAL, which SQLite stores as
// NULL) matches nothing.
func newValueTerm(op planner.Op, v any) (scan.ValueTerm, termKind) {
	var n sqlNum
	switch x := v.(type) {
	case int64:
		n = sqlNum{I: x}
	case float64:
		if math.IsNaN(x) {
			return scan.ValueTerm{}, termNone
		}
		n = sqlNum{F: x, Real: true}
	case string:
		p, ok := parseNumeric(x)
		if !ok {
			return textTerm(op)
		}
		if i, ok := p.(int64); ok {
			n = sqlNum{I: i}
		} else {
			n = sqlNum{F: sqliteReal(x), Real: true}
		}
	case []byte:
		return textTerm(op)
	default:
		return scan.ValueTerm{}, termNone
	}
	return scan.ValueTerm{Op: op, Lo: n, Hi: n}, termUse
}

// textTerm is "value op TEXT": every number sorts before TEXT.
func textTerm(op planner.Op) (scan.ValueTerm, termKind) {
	if op == planner.OpLT || op == planner.OpLE {
		inf := sqlNum{F: math.Inf(1), Real: true}
		return scan.ValueTerm{Op: planner.OpLE, Lo: inf, Hi: inf}, termUse
	}
	return scan.ValueTerm{}, termNone
}
