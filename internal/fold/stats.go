package fold

import (
	"cmp"
	"math"
)

// Stats is the partial result of a reduction: of one block, one chunk or
// one group. The zero value is the empty Stats, the identity of [Merge].
// Read results with the accessor methods; each reports ok=false where
// SQLite would return NULL.
//
// Counting follows SQLite with NaN in the role of NULL: NaN elements are
// counted by [Stats.NullCount] and skipped by everything else; ±Inf
// elements take part in count, sum, mean, min and max with IEEE 754
// arithmetic. Integer dtypes are summed exactly ([Stats.ExactSum]).
type Stats struct {
	count, nulls int64
	// sum+comp is the Neumaier-compensated sum. For float dtypes comp is
	// ignored once it is not finite (an Inf was added), as SQLite does.
	// For integer dtypes it is a ≈106-bit copy of isum used by Merge.
	sum, comp float64
	min, max  float64 // float dtypes
	m2        float64 // sum of squared deviations from the mean
	// Exact sum, minimum and maximum of integer dtypes.
	isum, imin, imax Int128
	isInt            bool
}

// Count is the number of non-NaN elements folded in.
func (s Stats) Count() int64 { return s.count }

// NullCount is the number of NaN elements folded in (null_count).
func (s Stats) NullCount() int64 { return s.nulls }

// IsInt reports whether s was folded from an integer dtype, whose sum,
// minimum and maximum are exact ([Stats.ExactSum], [Stats.IntMin]).
func (s Stats) IsInt() bool { return s.isInt }

// Sum is the sum as a float64 (integer sums rounded once, correctly).
// ok is false when Count is 0 or the sum is NaN (+Inf and −Inf were both
// added): SQLite's sum() is NULL in both cases. An overflowing float sum
// is ±Inf, as in SQLite.
func (s Stats) Sum() (float64, bool) {
	if s.count == 0 {
		return 0, false
	}
	t := s.total()
	return t, !math.IsNaN(t)
}

// IntSum is the exact sum of an integer dtype when it fits in an int64;
// ok is false for float dtypes, empty Stats, or a sum outside the int64
// range (report [Stats.Sum] as REAL then).
func (s Stats) IntSum() (int64, bool) {
	if !s.isInt || s.count == 0 {
		return 0, false
	}
	return s.isum.Int64()
}

// ExactSum is the exact sum of an integer dtype; ok is false for float
// dtypes and empty Stats.
func (s Stats) ExactSum() (Int128, bool) { return s.isum, s.isInt && s.count > 0 }

// Mean is Sum/Count, the formula of SQLite's avg(); ok is false when
// Count is 0 or the result is NaN.
func (s Stats) Mean() (float64, bool) {
	if s.count == 0 {
		return 0, false
	}
	m := s.total() / float64(s.count)
	return m, !math.IsNaN(m)
}

// Min is the smallest non-NaN element (integers rounded to float64);
// ok is false when Count is 0.
func (s Stats) Min() (float64, bool) {
	if s.isInt {
		return s.imin.Float64(), s.count > 0
	}
	return s.min, s.count > 0
}

// Max is the largest non-NaN element (integers rounded to float64);
// ok is false when Count is 0.
func (s Stats) Max() (float64, bool) {
	if s.isInt {
		return s.imax.Float64(), s.count > 0
	}
	return s.max, s.count > 0
}

// IntMin is the exact minimum of an integer dtype when it fits in an
// int64 (every dtype but u64 above 2^63−1); ok is false otherwise.
func (s Stats) IntMin() (int64, bool) {
	if !s.isInt || s.count == 0 {
		return 0, false
	}
	return s.imin.Int64()
}

// IntMax is the exact maximum of an integer dtype when it fits in an
// int64; ok is false otherwise.
func (s Stats) IntMax() (int64, bool) {
	if !s.isInt || s.count == 0 {
		return 0, false
	}
	return s.imax.Int64()
}

// Var is the population variance M2/Count. ok is false when Count is 0
// or the mean is not finite (an element was ±Inf, or the sum overflowed):
// the variance is undefined (NaN) there.
func (s Stats) Var() (float64, bool) {
	if s.count == 0 {
		return 0, false
	}
	if m := s.total() / float64(s.count); math.IsInf(m, 0) || math.IsNaN(m) {
		return math.NaN(), false
	}
	v := max(s.m2, 0) / float64(s.count)
	return v, !math.IsNaN(v)
}

// Std is the population standard deviation √Var, with Var's ok.
func (s Stats) Std() (float64, bool) {
	v, ok := s.Var()
	return math.Sqrt(v), ok
}

// total is the best float64 value of the sum.
func (s *Stats) total() float64 {
	if s.isInt {
		return s.isum.Float64()
	}
	if math.IsInf(s.comp, 0) || math.IsNaN(s.comp) {
		return s.sum // SQLite: drop an overflowed compensation
	}
	return s.sum + s.comp
}

// Merge returns the Stats of the union of the elements of a and b. It is
// the parallel combination of Chan, Golub and LeVeque with a near-exact
// difference of means: with T the compensated sums,
// δ·na·nb = Tb·na − Ta·nb is formed with error-free products, and
// M2 = M2a + M2b + δ²·na·nb/(na+nb). Partials may be merged in any order
// and grouping; results agree to a few ulps.
func Merge(a, b Stats) Stats {
	merge(&a, &b)
	return a
}

// merge folds b into a.
func merge(a, b *Stats) {
	if b.count == 0 {
		a.nulls += b.nulls
		return
	}
	if a.count == 0 {
		nulls := a.nulls + b.nulls
		*a = *b
		a.nulls = nulls
		return
	}
	na, nb := float64(a.count), float64(b.count)
	p1, e1 := twoProd(b.sum, na)
	p2, e2 := twoProd(a.sum, nb)
	num := (p1 - p2) + ((e1 - e2) + (b.comp*na - a.comp*nb))
	delta := num / (na * nb)
	a.m2 += b.m2 + delta*delta*(na*nb/(na+nb))
	s, e := twoSum(a.sum, b.sum)
	a.sum, a.comp = s, a.comp+(b.comp+e)
	a.count += b.count
	a.nulls += b.nulls
	if b.min < a.min {
		a.min = b.min
	}
	if b.max > a.max {
		a.max = b.max
	}
	if b.isInt {
		a.isInt = true
		a.isum = a.isum.Add(b.isum)
		if b.imin.Cmp(a.imin) < 0 {
			a.imin = b.imin
		}
		if b.imax.Cmp(a.imax) > 0 {
			a.imax = b.imax
		}
	}
}

// push folds one non-NaN element, given as the double-double xh+xl, into
// the count, compensated sum and M2 of st (not min/max, nor the exact
// integer fields). The update is Welford's with the deviation formed from
// the compensated sum: δ·na = x·na − T exactly up to rounding of δ.
func push(st *Stats, xh, xl float64) {
	if st.count == 0 {
		st.count, st.sum, st.comp, st.m2 = 1, xh, xl, 0
		return
	}
	na := float64(st.count)
	p, e := twoProd(xh, na)
	num := (p - st.sum) + ((e - st.comp) + xl*na)
	st.m2 += num * (num / (na * (na + 1)))
	s, err := twoSum(st.sum, xh)
	st.sum, st.comp = s, st.comp+(err+xl)
	st.count++
}

// pushFloat folds one float element (NaN counts as null).
func pushFloat(st *Stats, x float64) {
	if x != x {
		st.nulls++
		return
	}
	if st.count == 0 || x < st.min {
		st.min = x
	}
	if st.count == 0 || x > st.max {
		st.max = x
	}
	push(st, x, 0)
}

// pushInt folds one integer element v (exactly), whose double-double
// value is xh+xl.
func pushInt(st *Stats, v Int128, xh, xl float64) {
	if st.count == 0 || v.Cmp(st.imin) < 0 {
		st.imin = v
	}
	if st.count == 0 || v.Cmp(st.imax) > 0 {
		st.imax = v
	}
	st.isInt = true
	st.isum = st.isum.Add(v)
	push(st, xh, xl)
}

// twoSum returns s = fl(a+b) and the exact error e = a+b−s (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bp := s - a
	return s, (a - (s - bp)) + (b - bp)
}

// twoProd returns p = fl(a·b) and the exact error e = a·b−p.
func twoProd(a, b float64) (p, e float64) {
	p = a * b
	return p, math.FMA(a, b, -p)
}

// CmpMin compares the minimum of s with that of o exactly (integer
// dtypes by their exact value): -1, 0 or +1. Both must have elements.
func (s Stats) CmpMin(o Stats) int {
	if s.isInt && o.isInt {
		return s.imin.Cmp(o.imin)
	}
	return cmp.Compare(s.min, o.min)
}

// CmpMax compares the maximum of s with that of o, as CmpMin.
func (s Stats) CmpMax(o Stats) int {
	if s.isInt && o.isInt {
		return s.imax.Cmp(o.imax)
	}
	return cmp.Compare(s.max, o.max)
}
