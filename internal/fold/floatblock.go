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

// f32Lanes is what foldF32AVX2 and foldF32AVX512 leave: per float64
// lane, the TwoSum sums s and their accumulated errors c, and Σd²; per
// f32 lane, the minimum and maximum; and NaN counts (summed over the
// four). The kernels fold their wider accumulators down to these lanes.
// The assembly knows these offsets (0, 32, 64, 96, 128, 160; checked
// below), and reads the starting minimum and maximum from mn and mx.
type f32Lanes struct {
	s, c, q [4]float64
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
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.c)-32]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.q)-64]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.mn)-96]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.mx)-128]
	_ = [1]int{}[unsafe.Offsetof(f32Lanes{}.nans)-160]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.c)-32]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.q)-64]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.mn)-96]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.mx)-128]
	_ = [1]int{}[unsafe.Offsetof(f64Lanes{}.nans)-160]
)

// Kernel levels, from slowest to fastest.
const (
	kernPortable = iota // the Go loop of foldTail
	kernAVX2            // foldF32AVX2, foldF64AVX2
	kernAVX512          // foldF32AVX512 for f32, AVX2 for f64
)

// kernel is the level the drivers use: bestKernel (tests may lower it).
var kernel = bestKernel

// floatBlock folds a block of at most floatBlockLen floats with shift k
// (finite, and representable in T).
func floatBlock[T float32 | float64](xs []T, k float64) Stats {
	switch v := any(xs).(type) {
	case []float32:
		return f32Block(v, k, kernel)
	case []float64:
		return f64Block(v, k, kernel)
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

// blockAcc is the running state of one block's fold: the compensated
// sum s+c, Σd² about the shift, minimum, maximum and NaN count.
type blockAcc struct {
	s, c, q, mn, mx float64
	nans            int
}

func newBlockAcc() blockAcc { return blockAcc{mn: math.Inf(1), mx: math.Inf(-1)} }

// startLanes sets a vector kernel's starting per-lane minimum and
// maximum: +Inf and −Inf.
func startLanes[M float32 | float64](mn, mx []M) {
	for i := range mn {
		mn[i], mx[i] = M(math.Inf(1)), M(math.Inf(-1))
	}
}

// addLanes folds what a vector kernel left — per-lane TwoSum sums s and
// their errors c, Σd² q, minima and maxima — into a.
//
// The lanes are summed as a tree of error-free TwoSums (independent at
// each level), which is as exact as a chain.
func addLanes[M float32 | float64](a *blockAcc, s, c, q []float64, mn, mx []M) {
	var buf [4]float64
	t := buf[:copy(buf[:], s)]
	var errs, cs, qs float64
	for len(t) > 1 {
		h := len(t) / 2
		for i := range h {
			var e float64
			t[i], e = twoSum(t[i], t[i+h])
			errs += e
		}
		t = t[:h]
	}
	for i := range c {
		cs += c[i]
		qs += q[i]
	}
	var e float64
	a.s, e = twoSum(a.s, t[0])
	a.c += e + errs + cs
	a.q += qs
	lo, hi := mn[0], mx[0]
	for i := range mn {
		lo, hi = min(lo, mn[i]), max(hi, mx[i])
	}
	a.mn, a.mx = min(a.mn, float64(lo)), max(a.mx, float64(hi))
}

// f32Block folds xs with the kernels up to level.
func f32Block(xs []float32, k float64, level int) Stats {
	a := newBlockAcc()
	v := xs
	if level >= kernAVX512 && len(v) >= 16 {
		n := len(v) &^ 15
		var l f32Lanes
		startLanes(l.mn[:], l.mx[:])
		foldF32AVX512(&v[0], n, k, &l)
		addLanes(&a, l.s[:], l.c[:], l.q[:], l.mn[:], l.mx[:])
		a.nans += int(l.nans[0] + l.nans[1] + l.nans[2] + l.nans[3])
		v = v[n:]
	}
	if level >= kernAVX2 && len(v) >= 8 {
		n := len(v) &^ 7
		var l f32Lanes
		startLanes(l.mn[:], l.mx[:])
		foldF32AVX2(&v[0], n, k, &l)
		addLanes(&a, l.s[:], l.c[:], l.q[:], l.mn[:], l.mx[:])
		a.nans += int(l.nans[0] + l.nans[1] + l.nans[2] + l.nans[3])
		v = v[n:]
	}
	foldTail(&a, v, k)
	return blockStats(&a, xs, k)
}

// f64Block folds xs with the kernels up to level.
func f64Block(xs []float64, k float64, level int) Stats {
	a := newBlockAcc()
	v := xs
	if level >= kernAVX2 && len(v) >= 4 {
		n := len(v) &^ 3
		var l f64Lanes
		startLanes(l.mn[:], l.mx[:])
		foldF64AVX2(&v[0], n, k, &l)
		addLanes(&a, l.s[:], l.c[:], l.q[:], l.mn[:], l.mx[:])
		a.nans += int(l.nans[0] + l.nans[1] + l.nans[2] + l.nans[3])
		v = v[n:]
	}
	foldTail(&a, v, k)
	return blockStats(&a, xs, k)
}

// foldTail is the portable kernel: it folds xs (the tail after the
// vector loop, or the whole block) into a, with shift k.
func foldTail[T float32 | float64](a *blockAcc, xs []T, k float64) {
	for _, x := range xs {
		e := float64(x)
		if e != e {
			a.nans++
			continue
		}
		var err float64
		a.s, err = twoSum(a.s, e)
		a.c += err
		d := e - k
		a.q += d * d
		a.mn, a.mx = min(a.mn, e), max(a.mx, e)
	}
}

// blockStats assembles the Stats of block xs from a, or refolds the
// block with floatBlockSlow when a sum is not finite (±Inf elements or
// overflow).
func blockStats[T float32 | float64](a *blockAcc, xs []T, k float64) Stats {
	count := len(xs) - a.nans
	switch {
	case count == 0:
		return Stats{nulls: int64(a.nans)}
	case a.s-a.s != 0 || a.c-a.c != 0 || a.q-a.q != 0:
		return floatBlockSlow(xs)
	}
	n := float64(count)
	// Σd = Σx − n·k from the compensated sum (p+pe = n·k exactly).
	p, pe := twoProd(k, n)
	sd := (a.s - p) + (a.c - pe)
	return Stats{count: int64(count), nulls: int64(a.nans), sum: a.s, comp: a.c,
		min: a.mn, max: a.mx, m2: max(a.q-sd*sd/n, 0)}
}
