package scan

// Num is a numeric SQL value: an INTEGER I, or a REAL F when Real.
type Num struct {
	I    int64
	F    float64
	Real bool
}

// CmpNum compares two numeric SQL values as SQLite does: integers and
// reals by their exact mathematical values (never by rounding the
// integer to a double), reals by IEEE order. Neither may be NaN.
func CmpNum(a, b Num) int {
	switch {
	case !a.Real && !b.Real:
		return cmpOrdered(a.I, b.I)
	case a.Real && b.Real:
		return cmpOrdered(a.F, b.F)
	case !a.Real:
		return cmpIntReal(a.I, b.F)
	}
	return -cmpIntReal(b.I, a.F)
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
