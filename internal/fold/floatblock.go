package fold

import (
	"math"
	"unsafe"
)

// Float blocks are folded in one pass: the sum of the elements with an
// error-free TwoSum per lane (Neumaier compensation, as SQLite's sum()
// does), so that cancellation between large elements is exact; and the
// squares of the deviations d = x − k from a shift k close to the mean
// (the group's mean so far, or the mean of the block's first few
// elements), which give M2 = Σd² − (Σd)²/n with Σd = Σx − n·k formed from
// the compensated sum. Cancellation in M2 loses about
// log2(1 + (mean−k)²/var) bits, at most log2(n/16 + 1) since k is the
// mean of some of the elements.
//
// A NaN element counts as null and adds nothing. A block holding ±Inf,
// or whose sums overflow, is redone by floatBlockSlow.

// f32Lanes is what foldF32AVX2 leaves, per float64 lane (lanes 0–3 and
// 4–7 of each group of eight elements): the TwoSum sums s and their
// accumulated errors c, Σd², the per-lane f32 minimum and maximum, and
// NaN counts. The assembly knows these offsets (0, 64, 128, 192, 224,
// 256; checked below).
type f32Lanes struct {
	s, c, q [8]float64
	mn, mx  [8]float32
	nans    [4]int64
}

// f64Lanes is what foldF64AVX2 leaves: per-lane TwoSum sums s and their
// accumulated errors c, Σd², minimum, maximum and NaN counts (offsets 0,
// 32, 64, 96, 128, 160).
type f64Lanes struct {
	s, c, q [4]float64
	mn, mx  [4]float64
	nans    [4]int64
}

// Compile-time checks of the offsets kernel_amd64.s uses: a constant
// index out of range is an error.
var (
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.c)-64]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.q)-128]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.mn)-192]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.mx)-224]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.nans)-256]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.c)-32]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.q)-64]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.mn)-96]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.mx)-128]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.nans)-160]
)

// floatBlock folds a block of at most floatBlockLen floats with shift k
// (finite, and representable in T).
func floatBlock[T float32 | float64](xs []T, k float64) Stats {
	switch v := any(xs).(type) {
	case []float32:
		return f32Block(v, k, useSIMD)
	case []float64:
		return f64Block(v, k, useSIMD)
	}
	panic("unreachable")
}

// shift chooses k for a block of a group whose partial result is acc:
// acc's mean when it has one, else the mean of the finite elements among
// the block's first 16 (0 if there are none), rounded to T.
func shift[T float32 | float64](acc *Stats, xs []T) float64 {
	if acc.count > 0 {
		if m := acc.total() / float64(acc.count); m-m == 0 {
			return float64(T(m))
		}
	}
	var s float64
	n := 0
	for _, x := range xs[:min(len(xs), 16)] {
		if v := float64(x); v-v == 0 {
			s += v
			n++
		}
	}
	if m := s / float64(n); n > 0 && m-m == 0 {
		return float64(T(m))
	}
	return 0
}

// f32Block folds xs, through the assembly kernel if simd is set.
func f32Block(xs []float32, k float64, simd bool) Stats {
	var s, c, q float64
	mn, mx := math.Inf(1), math.Inf(-1)
	nans := 0
	v := xs
	if simd && len(v) >= 8 {
		n := len(v) &^ 7
		var l f32Lanes
		for i := range l.mn {
			l.mn[i], l.mx[i] = float32(mn), float32(mx)
		}
		foldF32AVX2(&v[0], n, k, &l)
		s = l.s[0]
		for _, x := range l.s[1:] {
			var e float64
			s, e = twoSum(s, x)
			c += e
		}
		c += ((l.c[0] + l.c[4]) + (l.c[1] + l.c[5])) + ((l.c[2] + l.c[6]) + (l.c[3] + l.c[7]))
		q = ((l.q[0] + l.q[4]) + (l.q[1] + l.q[5])) + ((l.q[2] + l.q[6]) + (l.q[3] + l.q[7]))
		for i := range l.mn {
			mn, mx = min(mn, float64(l.mn[i])), max(mx, float64(l.mx[i]))
		}
		nans = int(l.nans[0] + l.nans[1] + l.nans[2] + l.nans[3])
		v = v[n:]
	}
	// The portable kernel: the tail, or the whole block.
	for _, x := range v {
		e := float64(x)
		if e != e {
			nans++
			continue
		}
		var err float64
		s, err = twoSum(s, e)
		c += err
		d := e - k
		q += d * d
		mn, mx = min(mn, e), max(mx, e)
	}
	return blockStats(xs, len(xs)-nans, nans, s, c, q, k, mn, mx)
}

// f64Block folds xs, through the assembly kernel if simd is set.
func f64Block(xs []float64, k float64, simd bool) Stats {
	var s, c, q float64
	mn, mx := math.Inf(1), math.Inf(-1)
	nans := 0
	v := xs
	if simd && len(v) >= 4 {
		n := len(v) &^ 3
		var l f64Lanes
		for i := range l.mn {
			l.mn[i], l.mx[i] = mn, mx
		}
		foldF64AVX2(&v[0], n, k, &l)
		s = l.s[0]
		for _, x := range l.s[1:] {
			var e float64
			s, e = twoSum(s, x)
			c += e
		}
		c += (l.c[0] + l.c[1]) + (l.c[2] + l.c[3])
		q = (l.q[0] + l.q[1]) + (l.q[2] + l.q[3])
		for i := range l.mn {
			mn, mx = min(mn, l.mn[i]), max(mx, l.mx[i])
		}
		nans = int(l.nans[0] + l.nans[1] + l.nans[2] + l.nans[3])
		v = v[n:]
	}
	// The portable kernel: the tail, or the whole block.
	for _, x := range v {
		if x != x {
			nans++
			continue
		}
		var e float64
		s, e = twoSum(s, x)
		c += e
		d := x - k
		q += d * d
		mn, mx = min(mn, x), max(mx, x)
	}
	return blockStats(xs, len(xs)-nans, nans, s, c, q, k, mn, mx)
}

// blockStats assembles the Stats of a block from its count, NaN count,
// compensated sum s+c, Σd² about k, minimum and maximum, or refolds the
// block with floatBlockSlow when a sum is not finite (±Inf elements or
// overflow).
func blockStats[T float32 | float64](xs []T, count, nans int, s, c, q, k, mn, mx float64) Stats {
	switch {
	case count == 0:
		return Stats{nulls: int64(nans)}
	case s-s != 0 || c-c != 0 || q-q != 0:
		return floatBlockSlow(xs)
	}
	n := float64(count)
	// Σd = Σx − n·k from the compensated sum (p+pe = n·k exactly).
	p, pe := twoProd(k, n)
	sd := (s - p) + (c - pe)
	return Stats{count: int64(count), nulls: int64(nans), sum: s, comp: c,
		min: mn, max: mx, m2: max(q-sd*sd/n, 0)}
}
