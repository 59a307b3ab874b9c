package vtab

import (
	"math"

	"github.com/tetsql/tetsql/planner"
)

// sqlNum is a numeric SQL value: an INTEGER i, or a REAL f when real.
type sqlNum struct {
	i    int64
	f    float64
	real bool
}

// cmpNum compares two numeric SQL values as SQLite does: integers and
// reals by their exact mathematical values (never by rounding the
// integer to a double), reals by IEEE order. Neither may be NaN.
func cmpNum(a, b sqlNum) int {
	switch {
	case !a.real && !b.real:
		return cmpOrdered(a.i, b.i)
	case a.real && b.real:
		return cmpOrdered(a.f, b.f)
	case !a.real:
		return cmpIntReal(a.i, b.f)
	}
	return -cmpIntReal(b.i, a.f)
}

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpIntReal compares integer i with real r exactly.
func cmpIntReal(i int64, r float64) int {
	switch {
	case r < -(1 << 63): // also -Inf
		return 1
	case r >= 1<<63: // also +Inf
		return -1
	}
	t := int64(r) // r's integer part, exact: |r| < 2^63
	if c := cmpOrdered(i, t); c != 0 {
		return c
	}
	// i equals r's integer part; r's fraction, exact, decides.
	return cmpOrdered(0, r-float64(t))
}

// textTerm converts a TEXT argument the way SQLite's numeric affinity
// does before comparing it with a numeric column (parseNumeric), or gives
// ok=false when it stays TEXT (or when unsure: no chunk is skipped then).
// A text real is known up to rounding.
func textTerm(op planner.Op, s string) (valueTerm, bool) {
	v, ok := parseNumeric(s)
	if !ok {
		return valueTerm{}, false
	}
	if n, ok := v.(int64); ok {
		x := sqlNum{i: n}
		return valueTerm{op, x, x}, true
	}
	f := v.(float64)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return valueTerm{}, false
	}
	d := math.Abs(f) * 0x1p-40 // far wider than any rounding difference
	lo, hi := math.Nextafter(f-d, math.Inf(-1)), math.Nextafter(f+d, math.Inf(1))
	return valueTerm{op, sqlNum{f: lo, real: true}, sqlNum{f: hi, real: true}}, true
}
