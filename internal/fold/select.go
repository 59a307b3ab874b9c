package fold

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of xs, which must hold no
// NaN, interpolated linearly between order statistics (numpy's default
// method "linear", DuckDB's quantile_cont): with xs sorted, h = (n−1)·q,
// the result is x[⌊h⌋] + (h−⌊h⌋)·(x[⌈h⌉] − x[⌊h⌋]), see [Lerp] for ±Inf.
// It selects (introselect) rather than sorts, and reorders xs; calls for
// several q on the same xs stay correct. ok is false for an empty xs or
// an undefined result (−Inf and +Inf on either side of h). A zero result
// is +0: −0 and +0 are equal, so which of them a selection finds at a
// rank is arbitrary, and the answer must not depend on it.
func Quantile[T float32 | float64](xs []T, q float64) (float64, bool) {
	v, ok := quantile(xs, q)
	if v == 0 {
		v = 0 // +0, also for −0
	}
	return v, ok
}

func quantile[T float32 | float64](xs []T, q float64) (float64, bool) {
	n := len(xs)
	if n == 0 {
		return 0, false
	}
	h := float64(n-1) * q
	lo := min(int(math.Floor(h)), n-1)
	t := h - float64(lo)
	Select(xs, lo)
	a := float64(xs[lo])
	if t == 0 || lo == n-1 {
		return a, true
	}
	// Select leaves every element after lo at least xs[lo]: the next
	// order statistic is their minimum.
	return Lerp(a, float64(minOf(xs[lo+1:])), t)
}

// minOf is the smallest element of a non-empty xs without NaN (a plain
// compare, faster than slices.Min, which propagates NaN).
func minOf[T float32 | float64](xs []T) T {
	m := xs[0]
	for _, x := range xs[1:] {
		if x < m {
			m = x
		}
	}
	return m
}

// Lerp is a + t·(b − a) for a ≤ b and 0 < t < 1, defined where that
// formula gives NaN or overflows: equal ends give that value (so +Inf
// between +Inf and +Inf, not Inf·0), a = −Inf gives −Inf, b = +Inf gives
// +Inf, and finite ends whose difference overflows give (1−t)·a + t·b.
// Only a = −Inf with b = +Inf is undefined (ok false).
func Lerp(a, b, t float64) (float64, bool) {
	switch {
	case a == b:
		return a, true
	case math.IsInf(a, -1) && math.IsInf(b, 1):
		return math.NaN(), false
	case math.IsInf(a, -1):
		return a, true
	case math.IsInf(b, 1):
		return b, true
	}
	d := b - a
	if math.IsInf(d, 0) {
		return (1-t)*a + t*b, true
	}
	return a + t*d, true
}

// Select reorders xs so that xs[k] is the element a sort would put there,
// with no larger element before it and no smaller one after it (Hoare's
// find with a median-of-three pivot; past 2·log2(n) rounds the remaining
// range is sorted, which bounds the worst case by n·log n). xs must not
// hold NaN.
func Select[T cmp.Ordered](xs []T, k int) {
	lo, hi := 0, len(xs)-1
	if k < 0 || k > hi {
		return
	}
	depth := 2 * bits.Len(uint(len(xs)))
	for hi > lo {
		if hi-lo < 24 {
			insertionSort(xs[lo : hi+1])
			return
		}
		if depth == 0 {
			slices.Sort(xs[lo : hi+1])
			return
		}
		depth--
		pivot := median3(xs[lo], xs[lo+(hi-lo)/2], xs[hi])
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		// xs[lo..j] ≤ pivot ≤ xs[i..hi], and everything between equals it.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

func median3[T cmp.Ordered](a, b, c T) T {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

func insertionSort[T cmp.Ordered](xs []T) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
