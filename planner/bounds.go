package planner

import "math"

// numericSpan converts "i op v", for an integer i, into the half-open set
// [lo, hi) over int64 (saturating at the int64 extremes, which is exact
// because no index or rowid reaches MaxInt64). ok is false when v is not
// numeric (string, []byte, other): the constraint is then not honoured and
// does not restrict anything. nil and NaN give an empty set. Comparisons
// with floats are exact: i < 2.5 ⇔ i ≤ 2, i = 2.5 never holds.
func numericSpan(op Op, v any) (lo, hi int64, ok bool) {
	switch x := v.(type) {
	case nil:
		return 0, 0, true
	case int64:
		return intSpan(op, x)
	case float64:
		return floatSpan(op, x)
	}
	return minInt, maxInt, false
}

func intSpan(op Op, n int64) (lo, hi int64, ok bool) {
	switch op {
	case OpEQ:
		return n, inc(n), true
	case OpLT:
		return minInt, n, true
	case OpLE:
		return minInt, inc(n), true
	case OpGT:
		return inc(n), maxInt, true
	case OpGE:
		return n, maxInt, true
	}
	return minInt, maxInt, false
}

func floatSpan(op Op, v float64) (lo, hi int64, ok bool) {
	if math.IsNaN(v) {
		return 0, 0, true
	}
	switch op {
	case OpEQ:
		if math.IsInf(v, 0) || v != math.Floor(v) {
			return 0, 0, true
		}
		n := floorInt(v) // saturated values are outside every domain
		return n, inc(n), true
	case OpLT:
		return minInt, ceilInt(v), true
	case OpLE:
		return minInt, inc(floorInt(v)), true
	case OpGT:
		return inc(floorInt(v)), maxInt, true
	case OpGE:
		return ceilInt(v), maxInt, true
	}
	return minInt, maxInt, false
}

// countValue converts a LIMIT/OFFSET value to an integer. ok is false for
// anything that is not an int64 or an integral float64.
func countValue(v any) (n int64, ok bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || x != math.Floor(x) {
			return 0, false
		}
		return floorInt(x), true
	}
	return 0, false
}
