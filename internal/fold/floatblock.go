package fold

import (
	"math"
	"unsafe"
)

// Float blocks are folded in one pass over the deviations d = x − k from
// a shift k close to the mean (the group's mean so far, or the mean of
// the block's first few elements): Σd and Σd² give
// M2 = Σd² − (Σd)²/n, which loses only about log2(1 + (mean−k)²/var)
// bits to cancellation.
//
// Sums: an f32 block is summed as n·k + Σd, with n·k error-free and Σd
// in float64 lanes. k is rounded to float32, so each d is exact whenever
// x and k are within 2^29 of each other, and every lane adds at most
// floatBlockLen/8 deviations: 29 bits of headroom over the 24-bit input.
// An f64 block is summed with an error-free TwoSum per lane (Neumaier
// compensation), so cancellation between large elements is exact.
//
// A NaN element counts as null and adds nothing. A block holding ±Inf,
// or whose sums overflow, is redone by floatBlockSlow.

// f32Lanes is what foldF32AVX2 leaves: per-lane Σd and Σd² (float64,
// lanes 0–3 and 4–7 of each group of eight elements), the per-lane
// minimum and maximum, and NaN counts. The assembly knows these offsets
// (0, 64, 128, 160, 192; checked below).
type f32Lanes struct {
	s, q   [8]float64
	mn, mx [8]float32
	nans   [4]int64
}

// f64Lanes is what foldF64AVX2 leaves: per-lane TwoSum sums s and their
// accumulated errors c, Σd, Σd², minimum, maximum and NaN counts
// (offsets 0, 32, 64, 96, 128, 160, 192).
type f64Lanes struct {
	s, c, d, q [4]float64
	mn, mx     [4]float64
	nans       [4]int64
}

// Compile-time checks of the offsets kernel_amd64.s uses: a constant
// index out of range is an error.
var (
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.q)-64]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.mn)-128]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.mx)-160]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.nans)-192]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.c)-32]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.d)-64]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.q)-96]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.mn)-128]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.mx)-160]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.nans)-192]
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
	s, q := 0.0, 0.0
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
		s = ((l.s[0] + l.s[4]) + (l.s[1] + l.s[5])) + ((l.s[2] + l.s[6]) + (l.s[3] + l.s[7]))
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
		d := e - k
		if d != d {
			nans++
			continue
		}
		s += d
		q += d * d
		if e < mn {
			mn = e
		}
		if e > mx {
			mx = e
		}
	}
	count := len(xs) - nans
	switch {
	case count == 0:
		return Stats{nulls: int64(nans)}
	case s-s != 0 || q-q != 0: // ±Inf elements or overflow
		return floatBlockSlow(xs)
	}
	n := float64(count)
	p, e := twoProd(k, n)
	sum, e2 := twoSum(p, s)
	return Stats{count: int64(count), nulls: int64(nans), sum: sum, comp: e + e2,
		min: mn, max: mx, m2: max(q-s*s/n, 0)}
}

// f64Block folds xs, through the assembly kernel if simd is set.
func f64Block(xs []float64, k float64, simd bool) Stats {
	var s, c, sd, q float64
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
		sd = (l.d[0] + l.d[1]) + (l.d[2] + l.d[3])
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
		sd += d
		q += d * d
		if x < mn {
			mn = x
		}
		if x > mx {
			mx = x
		}
	}
	count := len(xs) - nans
	switch {
	case count == 0:
		return Stats{nulls: int64(nans)}
	case s-s != 0 || c-c != 0 || q-q != 0: // ±Inf elements or overflow
		return floatBlockSlow(xs)
	}
	n := float64(count)
	return Stats{count: int64(count), nulls: int64(nans), sum: s, comp: c,
		min: mn, max: mx, m2: max(q-sd*sd/n, 0)}
}
