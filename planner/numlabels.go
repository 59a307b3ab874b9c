package planner

import (
	"math"
	"strconv"
	"sync"
)

// LabelType is the SQL type of an axis's label column.
type LabelType uint8

// Label column types. See [ParseLabelNumber] for when an axis is numeric.
const (
	LabelNone    LabelType = iota // the axis has no labels
	LabelText                     // TEXT: the labels as written
	LabelInteger                  // INTEGER: every label is an integer literal
	LabelReal                     // REAL: every label is a number, some not integers
)

// String returns the SQL spelling of the type ("" for LabelNone).
func (t LabelType) String() string {
	switch t {
	case LabelText:
		return "TEXT"
	case LabelInteger:
		return "INTEGER"
	case LabelReal:
		return "REAL"
	}
	return ""
}

// ParseLabelNumber reads a coordinate label as a number. The grammar is a
// strict subset of SQLite's numeric literals, chosen so that reading a
// label loses no information a user may rely on:
//
//	label   = ["-"] int [ "." digits ] [ ("e" | "E") ["+" | "-"] digits ]
//	int     = "0" | nonzero digit { digit }
//	digits  = digit { digit }
//
// No white space, no leading "+", no leading zeros ("007" is a code, not 7),
// no hex, no "inf" or "nan", no "5." or ".5". A label with neither "." nor
// an exponent is an integer and must fit int64 and not be "-0"; any other
// label is a real and must be finite (rounded to the nearest float64).
// isInt reports an integer (i is its value); otherwise f is the value.
func ParseLabelNumber(s string) (i int64, f float64, isInt, ok bool) {
	n := len(s)
	p := 0
	if p < n && s[p] == '-' {
		p++
	}
	digits := func() int {
		q := p
		for p < n && s[p] >= '0' && s[p] <= '9' {
			p++
		}
		return p - q
	}
	start := p
	if nd := digits(); nd == 0 || nd > 1 && s[start] == '0' {
		return 0, 0, false, false
	}
	integer := true
	if p < n && s[p] == '.' {
		p++
		if digits() == 0 {
			return 0, 0, false, false
		}
		integer = false
	}
	if p < n && (s[p] == 'e' || s[p] == 'E') {
		p++
		if p < n && (s[p] == '+' || s[p] == '-') {
			p++
		}
		if digits() == 0 {
			return 0, 0, false, false
		}
		integer = false
	}
	if p != n {
		return 0, 0, false, false
	}
	if integer {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || s == "-0" {
			return 0, 0, false, false
		}
		return v, 0, true, true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, 0, false, false
	}
	return 0, v, false, true
}

// numAxis holds the numbers of a numeric label axis: ints for an INTEGER
// axis, reals for a REAL one.
type numAxis struct {
	real  bool
	ints  []int64
	reals []float64
	order int // +1 non-decreasing, -1 non-increasing (and not constant), 0 neither

	mapOnce sync.Once
	index   map[uint64]labelSpan // by key; built only for unordered axes
	dups    bool
}

// parseNumAxis returns the numeric form of labels, or nil when the axis
// stays TEXT: an empty axis, a label outside the grammar of
// [ParseLabelNumber], or an integer label in a REAL axis that a float64
// cannot hold exactly (it would silently change).
func parseNumAxis(labels []string) *numAxis {
	if len(labels) == 0 {
		return nil
	}
	ints := make([]int64, len(labels))
	var reals []float64
	for j, s := range labels {
		i, f, isInt, ok := ParseLabelNumber(s)
		if !ok {
			return nil
		}
		if isInt {
			ints[j] = i
			if reals != nil {
				if !exactFloat(i) {
					return nil
				}
				reals[j] = float64(i)
			}
			continue
		}
		if reals == nil {
			reals = make([]float64, len(labels))
			for k := range j {
				if !exactFloat(ints[k]) {
					return nil
				}
				reals[k] = float64(ints[k])
			}
		}
		reals[j] = f + 0 // -0 reads as 0, as a REAL column of SQLite stores it
	}
	a := &numAxis{real: reals != nil, ints: ints, reals: reals}
	if a.real {
		a.ints = nil
	}
	a.order = a.monotony()
	return a
}

// exactFloat reports whether float64(i) is exactly i.
func exactFloat(i int64) bool { return i >= -(1<<53) && i <= 1<<53 }

// monotony returns +1 when the numbers never decrease, -1 when they never
// increase (and are not all equal), else 0.
func (a *numAxis) monotony() int {
	up, down := true, true
	for j := 1; j < a.len(); j++ {
		switch c := cmpNum(a.at(j-1), a.at(j)); {
		case c < 0:
			down = false
		case c > 0:
			up = false
		}
	}
	switch {
	case up:
		return 1
	case down:
		return -1
	}
	return 0
}

func (a *numAxis) len() int {
	if a.real {
		return len(a.reals)
	}
	return len(a.ints)
}

// at returns label j as a number.
func (a *numAxis) at(j int) num {
	if a.real {
		return num{f: a.reals[j], real: true}
	}
	return num{i: a.ints[j]}
}

// key maps a number to the index key of this axis; ok is false when v
// cannot equal any label (a non-integral real on an INTEGER axis, an
// integer no float64 holds exactly on a REAL axis).
func (a *numAxis) key(v num) (uint64, bool) {
	if a.real {
		f := v.f
		if !v.real {
			if !exactFloat(v.i) {
				return 0, false
			}
			f = float64(v.i)
		}
		return math.Float64bits(f + 0), true // + 0 folds -0 into +0
	}
	if !v.real {
		return uint64(v.i), true
	}
	if v.f != math.Trunc(v.f) || v.f < -0x1p63 || v.f >= 0x1p63 {
		return 0, false
	}
	return uint64(int64(v.f)), true
}

// buildIndex builds the key → span map of an unordered axis.
func (a *numAxis) buildIndex() {
	a.mapOnce.Do(func() {
		a.index = make(map[uint64]labelSpan, a.len())
		for j := range a.len() {
			k, _ := a.key(a.at(j))
			sp, seen := a.index[k]
			if seen {
				a.dups = true
				sp.last = int64(j)
			} else {
				sp = labelSpan{int64(j), int64(j)}
			}
			a.index[k] = sp
		}
	})
}

// unique reports whether no number occurs twice; only asked of unordered
// axes (an ordered axis resolves equality exactly whatever its duplicates).
func (a *numAxis) unique() bool {
	a.buildIndex()
	return !a.dups
}
