package vtab

import (
	"math"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/planner"
)

// sqlNum is a numeric SQL value: an INTEGER I, or a REAL F when Real.
type sqlNum = scan.Num

// newValueTerm converts a value term's argument as SQLite compares it
// with a numeric column: INTEGER and REAL as they are, TEXT that reads as
// a number converted (numeric affinity). Other TEXT, BLOB, NULL and NaN
// give ok=false: such terms never skip a chunk.
func newValueTerm(op planner.Op, v any) (scan.ValueTerm, bool) {
	switch x := v.(type) {
	case int64:
		n := sqlNum{I: x}
		return scan.ValueTerm{Op: op, Lo: n, Hi: n}, true
	case float64:
		if math.IsNaN(x) {
			return scan.ValueTerm{}, false
		}
		n := sqlNum{F: x, Real: true}
		return scan.ValueTerm{Op: op, Lo: n, Hi: n}, true
	case string:
		return textTerm(op, x)
	}
	return scan.ValueTerm{}, false
}

// textTerm converts a TEXT argument the way SQLite's numeric affinity
// does before comparing it with a numeric column (parseNumeric), or gives
// ok=false when it stays TEXT (or when unsure: no chunk is skipped then).
// A text real is known up to rounding.
func textTerm(op planner.Op, s string) (scan.ValueTerm, bool) {
	v, ok := parseNumeric(s)
	if !ok {
		return scan.ValueTerm{}, false
	}
	if n, ok := v.(int64); ok {
		x := sqlNum{I: n}
		return scan.ValueTerm{Op: op, Lo: x, Hi: x}, true
	}
	f := v.(float64)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return scan.ValueTerm{}, false
	}
	d := math.Abs(f) * 0x1p-40 // far wider than any rounding difference
	lo, hi := math.Nextafter(f-d, math.Inf(-1)), math.Nextafter(f+d, math.Inf(1))
	return scan.ValueTerm{Op: op, Lo: sqlNum{F: lo, Real: true}, Hi: sqlNum{F: hi, Real: true}}, true
}
