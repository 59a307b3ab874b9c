package scan

import (
	"encoding/binary"
	"math"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/planner"
)

// valueFilter is the exact test of a conjunction of value terms on one
// element, as SQLite would evaluate "value op x" on the SQL value the
// cells table emits for it: REAL for floats (NaN is NULL and passes
// nothing), INTEGER for integers, REAL (rounded) for a u64 above 2^63-1.
//
// Each term selects a ray of SQLite's numeric order, so their
// conjunction is one interval; it is kept twice, as a closed interval of
// emitted REAL values [flo, fhi] and of emitted INTEGER values [ilo,
// ihi] (empty when lo > hi), so the per-element test is two comparisons
// in the element's own domain, with INTEGER/REAL comparisons made exact
// once, when the filter is built.
type valueFilter struct {
	kind     byte // 'f' float dtypes, 'i' integers up to i64/u32, 'u' u64
	dt       array.DType
	flo, fhi float64
	ilo, ihi int64
}

// set compiles terms (each with Lo == Hi: an exact argument) for dtype dt.
func (f *valueFilter) set(dt array.DType, terms []ValueTerm) {
	*f = valueFilter{dt: dt, kind: 'i', flo: math.Inf(-1), fhi: math.Inf(1), ilo: math.MinInt64, ihi: math.MaxInt64}
	switch {
	case dt.IsFloat():
		f.kind = 'f'
	case dt == array.U64:
		f.kind = 'u'
	}
	for _, t := range terms {
		f.addFloat(t.Op, t.Lo)
		f.addInt(t.Op, t.Lo)
	}
}

// passes reports whether element i of vals satisfies every term.
func (f *valueFilter) passes(vals []byte, i int) bool {
	switch f.kind {
	case 'f':
		x := f.dt.Float64(vals, i)
		return x >= f.flo && x <= f.fhi // false for NaN
	case 'u':
		u := f.dt.Uint64(vals, i)
		if u > math.MaxInt64 {
			x := float64(u)
			return x >= f.flo && x <= f.fhi
		}
		return int64(u) >= f.ilo && int64(u) <= f.ihi
	}
	x := f.dt.Int64(vals, i)
	return x >= f.ilo && x <= f.ihi
}

// passesNum reports whether the emitted SQL value n satisfies every term.
func (f *valueFilter) passesNum(n Num) bool {
	if n.Real {
		return n.F >= f.flo && n.F <= f.fhi
	}
	return n.I >= f.ilo && n.I <= f.ihi
}

// covers reports whether every element of a chunk with statistics s
// passes: no NULL (NaN) and both extremes pass (the passing set is an
// interval of SQLite's order, and every element lies between them).
func (f *valueFilter) covers(s ChunkStat) bool {
	return s.Nulls == 0 && s.Count > 0 && f.passesNum(s.Min) && f.passesNum(s.Max)
}

// addFloat narrows [flo, fhi] to the REAL values x with "x op a".
func (f *valueFilter) addFloat(op planner.Op, a Num) {
	lo, hi := math.Inf(-1), math.Inf(1)
	empty := false
	if a.Real {
		x := a.F
		switch op {
		case planner.OpGT:
			empty, lo = x == math.Inf(1), math.Nextafter(x, math.Inf(1))
		case planner.OpGE:
			lo = x
		case planner.OpLT:
			empty, hi = x == math.Inf(-1), math.Nextafter(x, math.Inf(-1))
		case planner.OpLE:
			hi = x
		case planner.OpEQ:
			lo, hi = x, x
		}
	} else {
		i := a.I
		g := float64(i) // nearest; cmpIntReal(i, g) tells which side
		c := cmpIntReal(i, g)
		switch op {
		case planner.OpGT: // smallest REAL above i
			lo = g
			if c >= 0 {
				lo = math.Nextafter(g, math.Inf(1))
			}
		case planner.OpGE:
			lo = g
			if c > 0 {
				lo = math.Nextafter(g, math.Inf(1))
			}
		case planner.OpLT: // largest REAL below i
			hi = g
			if c <= 0 {
				hi = math.Nextafter(g, math.Inf(-1))
			}
		case planner.OpLE:
			hi = g
			if c < 0 {
				hi = math.Nextafter(g, math.Inf(-1))
			}
		case planner.OpEQ:
			lo, hi, empty = g, g, c != 0
		}
	}
	f.flo, f.fhi = max(f.flo, lo), min(f.fhi, hi)
	if empty {
		f.flo, f.fhi = 1, 0
	}
}

// two63 is 2^63, the first REAL above every int64.
const two63 = 1 << 63

// addInt narrows [ilo, ihi] to the INTEGER values x with "x op a".
func (f *valueFilter) addInt(op planner.Op, a Num) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	empty := false
	if !a.Real {
		i := a.I
		switch op {
		case planner.OpGT:
			empty, lo = i == math.MaxInt64, i+1
		case planner.OpGE:
			lo = i
		case planner.OpLT:
			empty, hi = i == math.MinInt64, i-1
		case planner.OpLE:
			hi = i
		case planner.OpEQ:
			lo, hi = i, i
		}
	} else {
		x := a.F
		above, below := x >= two63, x < -two63 // beyond every int64 (±Inf too)
		switch op {
		case planner.OpGT:
			switch {
			case above:
				empty = true
			case !below:
				lo = int64(math.Floor(x)) + 1
			}
		case planner.OpGE:
			switch {
			case above:
				empty = true
			case !below:
				lo = int64(math.Ceil(x))
			}
		case planner.OpLT:
			switch {
			case x <= -two63:
				empty = true
			case !above:
				hi = int64(math.Ceil(x)) - 1
			}
		case planner.OpLE:
			switch {
			case below:
				empty = true
			case !above:
				hi = int64(math.Floor(x))
			}
		case planner.OpEQ:
			if above || below || x != math.Trunc(x) {
				empty = true
			} else {
				lo, hi = int64(x), int64(x)
			}
		}
	}
	f.ilo, f.ihi = max(f.ilo, lo), min(f.ihi, hi)
	if empty {
		f.ilo, f.ihi = 1, 0
	}
}

// find returns the offset from i of the first of the n elements of vals
// from i on that passes, or n when none does: one typed loop per call,
// so that a scan crosses failing elements without a call per element.
func (f *valueFilter) find(vals []byte, i, n int) int {
	lo, hi := f.flo, f.fhi
	switch f.dt {
	case array.F32:
		b := vals[4*i : 4*(i+n)]
		for k := 0; k < n; k++ {
			x := float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
			if x >= lo && x <= hi {
				return k
			}
		}
		return n
	case array.F64:
		b := vals[8*i : 8*(i+n)]
		for k := 0; k < n; k++ {
			x := math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:]))
			if x >= lo && x <= hi {
				return k
			}
		}
		return n
	case array.I16, array.I32, array.I64, array.U8, array.U16, array.U32, array.I8:
		ilo, ihi, dt := f.ilo, f.ihi, f.dt
		for k := 0; k < n; k++ {
			if x := dt.Int64(vals, i+k); x >= ilo && x <= ihi {
				return k
			}
		}
		return n
	}
	for k := 0; k < n; k++ {
		if f.passes(vals, i+k) {
			return k
		}
	}
	return n
}

// gather copies the elements among the n of src from element off on
// that pass into dst (room for n elements), in order, and returns how
// many: the typed loop of a fold's partial chunks. Each element is
// written and the count advanced only when it passes, which keeps the
// loop free of unpredictable branches.
func (f *valueFilter) gather(dst, src []byte, off, n int) int {
	m := 0
	switch f.dt {
	case array.F32:
		lo, hi := f.flo, f.fhi
		s := src[4*off : 4*(off+n)]
		d := dst[:4*n]
		for k := 0; k < n; k++ {
			u := binary.LittleEndian.Uint32(s[4*k:])
			x := float64(math.Float32frombits(u))
			binary.LittleEndian.PutUint32(d[4*m:], u)
			if x >= lo && x <= hi {
				m++
			}
		}
		return m
	case array.F64:
		lo, hi := f.flo, f.fhi
		s := src[8*off : 8*(off+n)]
		d := dst[:8*n]
		for k := 0; k < n; k++ {
			u := binary.LittleEndian.Uint64(s[8*k:])
			x := math.Float64frombits(u)
			binary.LittleEndian.PutUint64(d[8*m:], u)
			if x >= lo && x <= hi {
				m++
			}
		}
		return m
	}
	size := f.dt.Size()
	for k := 0; k < n; k++ {
		if f.passes(src, off+k) {
			copy(dst[m*size:(m+1)*size], src[(off+k)*size:])
			m++
		}
	}
	return m
}
