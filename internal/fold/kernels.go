package fold

import (
	"math"
	"math/bits"
	"unsafe"
)

// The block kernels fold one block of at most blockLen (integers) or
// floatBlockLen (floats, see floatblock.go) elements, at least one, into
// a Stats. Blocks are combined with merge.

// floatBlockSlow folds a block that may hold NaN (skipped, counted as
// null) and ±Inf (which make the sum non-finite and M2 NaN).
func floatBlockSlow[T float32 | float64](xs []T) Stats {
	var st Stats
	for _, x := range xs {
		v := float64(x)
		if v != v {
			st.nulls++
			continue
		}
		if st.count == 0 || v < st.min {
			st.min = v
		}
		if st.count == 0 || v > st.max {
			st.max = v
		}
		var e float64
		st.sum, e = twoSum(st.sum, v)
		st.comp += e
		st.count++
	}
	if st.count == 0 {
		return st
	}
	m := st.total() / float64(st.count)
	if math.IsInf(m, 0) || math.IsNaN(m) {
		st.m2 = math.NaN()
		return st
	}
	var q, d float64
	for _, x := range xs {
		if v := float64(x); v == v {
			q += (v - m) * (v - m)
			d += v - m
		}
	}
	st.m2 = max(q-d*d/float64(st.count), 0)
	return st
}

// intBlock folds a block of integers with an exact sum and exact
// minimum and maximum. Blocks hold at most blockLen (2^11) elements, so
// an int64 sum cannot overflow for elements of up to 32 bits; 64-bit
// elements are summed in 128 bits.
//
// For 8- and 16-bit elements M2 is computed exactly in integers:
// M2 = (n·Σx² − (Σx)²)/n, with Σx² < 2^43 in a uint64 (one pass, rounded
// once at the end). Wider elements use the float two-pass formula.
func intBlock[T int8 | uint8 | uint16 | int16 | uint32 | int32 | uint64 | int64](xs []T) Stats {
	var zero T
	signed, size := ^zero < 0, unsafe.Sizeof(zero)
	st := Stats{count: int64(len(xs)), isInt: true}
	mn, mx := xs[0], xs[0]
	switch {
	case size <= 2:
		var s int64
		var q uint64
		s, q, mn, mx = sumSquares(xs)
		st.isum = Int128FromInt64(s)
		st.sum = float64(s) // exact: |s| < 2^27
		n := uint64(len(xs))
		hi, lo := bits.Mul64(q, n)
		as := uint64(s)
		if s < 0 {
			as = uint64(-s)
		}
		h2, l2 := bits.Mul64(as, as)
		lo, b := bits.Sub64(lo, l2, 0)
		hi -= h2 + b
		st.m2 = Int128{Hi: int64(hi), Lo: lo}.Float64() / float64(n)
	case size == 4:
		var s int64
		for _, x := range xs {
			s += int64(x)
			mn, mx = min(mn, x), max(mx, x)
		}
		st.isum = Int128FromInt64(s)
		st.sum = float64(s) // exact: |s| < 2^43
	default:
		var lo uint64
		var hi int64
		for _, x := range xs {
			var c uint64
			lo, c = bits.Add64(lo, uint64(x), 0)
			hi += int64(c)
			if signed {
				hi += int64(x) >> 63
			}
			mn, mx = min(mn, x), max(mx, x)
		}
		st.isum = Int128{Hi: hi, Lo: lo}
		st.sum, st.comp = st.isum.doubleDouble()
	}
	st.imin, st.imax = wideInt(mn), wideInt(mx)
	if size > 2 {
		m := (st.sum + st.comp) / float64(len(xs))
		var q, d float64
		for _, x := range xs {
			e := float64(x) - m
			q += e * e
			d += e
		}
		st.m2 = max(q-d*d/float64(len(xs)), 0)
	}
	return st
}

// wideInt converts any integer element to Int128.
func wideInt[T int8 | uint8 | uint16 | int16 | uint32 | int32 | uint64 | int64](x T) Int128 {
	var zero T
	if ^zero < 0 {
		return Int128FromInt64(int64(x))
	}
	return Int128FromUint64(uint64(x))
}

// sumSquares returns Σx, Σx², min and max of a block of 8- or 16-bit
// integers (Σx² < 2^43 for blockLen elements; wider elements would
// overflow it).
func sumSquares[T int8 | uint8 | uint16 | int16 | uint32 | int32 | uint64 | int64](xs []T) (s int64, q uint64, mn, mx T) {
	mn, mx = xs[0], xs[0]
	for _, x := range xs {
		v := int64(x)
		s += v
		q += uint64(v * v)
		mn, mx = min(mn, x), max(mx, x)
	}
	return s, q, mn, mx
}
