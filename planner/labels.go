package planner

import (
	"sort"
	"sync"
)

// labelAxis holds the coordinate labels of one axis and the lookup
// structures built lazily from them. It is safe for concurrent use.
type labelAxis struct {
	labels []string

	sortOnce sync.Once
	sorted   bool // strictly ascending in byte order

	mapOnce sync.Once
	index   map[string]labelSpan // built only for unsorted axes
	dups    bool

	numOnce sync.Once
	nums    *numAxis // nil: the axis stays TEXT
}

// numeric returns the numeric form of the axis, or nil when it is TEXT.
func (a *labelAxis) numeric() *numAxis {
	a.numOnce.Do(func() { a.nums = parseNumAxis(a.labels) })
	return a.nums
}

// labelSpan records the first and last index at which a label occurs.
type labelSpan struct{ first, last int64 }

func (a *labelAxis) isSorted() bool {
	a.sortOnce.Do(func() {
		a.sorted = true
		for i := 1; i < len(a.labels); i++ {
			if a.labels[i-1] >= a.labels[i] {
				a.sorted = false
				return
			}
		}
	})
	return a.sorted
}

// buildIndex builds the label → span map; only used for unsorted axes,
// since a sorted axis is searched in place.
func (a *labelAxis) buildIndex() {
	a.mapOnce.Do(func() {
		a.index = make(map[string]labelSpan, len(a.labels))
		for i, s := range a.labels {
			sp, seen := a.index[s]
			if seen {
				a.dups = true
				sp.last = int64(i)
			} else {
				sp = labelSpan{int64(i), int64(i)}
			}
			a.index[s] = sp
		}
	})
}

// unique reports whether no label occurs twice.
func (a *labelAxis) unique() bool {
	if a.isSorted() {
		return true
	}
	a.buildIndex()
	return !a.dups
}

// span returns the half-open index range [lo, hi) selected by
// "label op v" and whether that range is exactly the matching set.
// restrict is false when the constraint does not narrow the axis at all.
func (a *labelAxis) span(op Op, v string) (lo, hi int64, exact, restrict bool) {
	n := int64(len(a.labels))
	if a.isSorted() {
		ge := func() int64 { return int64(sort.Search(len(a.labels), func(i int) bool { return a.labels[i] >= v })) }
		gt := func() int64 { return int64(sort.Search(len(a.labels), func(i int) bool { return a.labels[i] > v })) }
		switch op {
		case OpEQ:
			i := ge()
			if i < n && a.labels[i] == v {
				return i, i + 1, true, true
			}
			return 0, 0, true, true
		case OpLT:
			return 0, ge(), true, true
		case OpLE:
			return 0, gt(), true, true
		case OpGT:
			return gt(), n, true, true
		case OpGE:
			return ge(), n, true, true
		}
		return 0, n, false, false
	}
	if op != OpEQ {
		return 0, n, false, false // range on an unsorted axis: leave to SQLite
	}
	a.buildIndex()
	sp, ok := a.index[v]
	if !ok {
		return 0, 0, true, true
	}
	return sp.first, sp.last + 1, sp.first == sp.last, true
}
