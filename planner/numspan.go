package planner

import (
	"math"
	"sort"
)

// Resolution of constraints on numeric label axes (see numlabels.go):
// values compare as SQLite compares them with a REAL or INTEGER column,
// INTEGER against REAL exactly.

// num is an SQL number: an INTEGER i, or a REAL f when real.
type num struct {
	i    int64
	f    float64
	real bool
}

// numOf reads a constraint value as a number. ok is false for anything
// but int64 and float64; null is true for a value that matches nothing
// (NULL, and NaN, which SQLite turns into NULL).
func numOf(v any) (n num, null, ok bool) {
	switch x := v.(type) {
	case nil:
		return n, true, true
	case int64:
		return num{i: x}, false, true
	case float64:
		if math.IsNaN(x) {
			return n, true, true
		}
		return num{f: x, real: true}, false, true
	}
	return n, false, false
}

// cmpNum compares two numbers exactly: -1, 0 or 1 (no NaN).
func cmpNum(a, b num) int {
	switch {
	case !a.real && !b.real:
		return cmp3(a.i < b.i, a.i > b.i)
	case a.real && b.real:
		return cmp3(a.f < b.f, a.f > b.f)
	case a.real:
		return -cmpIntFloat(b.i, a.f)
	}
	return cmpIntFloat(a.i, b.f)
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

// cmpIntFloat compares an integer with a float exactly, as SQLite's
// sqlite3IntFloatCompare does.
func cmpIntFloat(i int64, f float64) int {
	switch {
	case f < -0x1p63:
		return 1
	case f >= 0x1p63:
		return -1
	}
	t := int64(f) // truncated toward zero, in range
	if i != t {
		return cmp3(i < t, i > t)
	}
	// i == trunc(f): f's fraction decides; float64(i) is exact whenever
	// f has a fraction (|f| < 2^52).
	return cmp3(float64(i) < f, float64(i) > f)
}

// matches applies op to label j and v.
func (a *numAxis) matches(j int, op Op, v num) bool {
	c := cmpNum(a.at(j), v)
	switch op {
	case OpEQ:
		return c == 0
	case OpLT:
		return c < 0
	case OpLE:
		return c <= 0
	case OpGT:
		return c > 0
	case OpGE:
		return c >= 0
	}
	return false
}

// span returns the half-open index range selected by "label op v" and
// whether it is exactly the matching set. On an ordered axis every
// operator resolves to an exact range by binary search; on an unordered
// one equality is looked up in the index (exact when the number occurs
// once) and a range narrows to the hull of its matches, a scan over the
// labels (exact only when every label of the hull matches).
func (a *numAxis) span(op Op, v num) (lo, hi int64, exact bool) {
	n := a.len()
	if a.order != 0 {
		// The matching labels form one run, found by binary search for
		// the first label past v in the axis's direction.
		first := func(pred func(c int) bool) int64 {
			return int64(sort.Search(n, func(j int) bool { return pred(cmpNum(a.at(j), v)) }))
		}
		end := int64(n)
		if a.order > 0 {
			ge, gt := first(func(c int) bool { return c >= 0 }), first(func(c int) bool { return c > 0 })
			switch op {
			case OpEQ:
				return ge, gt, true
			case OpLT:
				return 0, ge, true
			case OpLE:
				return 0, gt, true
			case OpGT:
				return gt, end, true
			case OpGE:
				return ge, end, true
			}
			return 0, end, false
		}
		le, lt := first(func(c int) bool { return c <= 0 }), first(func(c int) bool { return c < 0 })
		switch op {
		case OpEQ:
			return le, lt, true
		case OpLT:
			return lt, end, true
		case OpLE:
			return le, end, true
		case OpGT:
			return 0, le, true
		case OpGE:
			return 0, lt, true
		}
		return 0, end, false
	}
	if op == OpEQ {
		a.buildIndex()
		k, ok := a.key(v)
		sp, found := a.index[k]
		if !ok || !found {
			return 0, 0, true
		}
		return sp.first, sp.last + 1, sp.first == sp.last
	}
	lo, hi = int64(n), 0
	var count int64
	for j := range n {
		if a.matches(j, op, v) {
			lo, hi = min(lo, int64(j)), int64(j)+1
			count++
		}
	}
	if lo >= hi {
		return 0, 0, true
	}
	return lo, hi, count == hi-lo
}
