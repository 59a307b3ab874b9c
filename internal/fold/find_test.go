package fold

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// findRef is the candidate search written out element by element.
func findRef[T float32 | float64](xs []T, c Cand, t T) int {
	for i, x := range xs {
		if passes(c, x, t) {
			return i
		}
	}
	return len(xs)
}

// findValues is a pool of awkward values: NaN, ±Inf, ±0, the threshold
// itself and its neighbours.
func findValues(t float64) []float64 {
	return []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		t, math.Nextafter(t, math.Inf(1)), math.Nextafter(t, math.Inf(-1)), t - 1, t + 1, -t}
}

// TestFind checks FindF32 and FindF64 against findRef for every Cand,
// on the kernels and on the Go loops, at several offsets (misaligned
// too), lengths around the block sizes, thresholds of every kind, and a
// single candidate placed at every position of the run.
func TestFind(t *testing.T) {
	defer func(k, u bool) { findKernel, unalignedOK = k, u }(findKernel, unalignedOK)
	rng := rand.New(rand.NewPCG(1, 2))
	// The kernels; the Go loop; and misaligned payloads copied, as on
	// CPUs without fast unaligned loads.
	for _, mode := range []struct{ kern, unaligned bool }{{findKernel, unalignedOK}, {false, unalignedOK}, {findKernel, false}} {
		kern := mode.kern
		findKernel, unalignedOK = mode.kern, mode.unaligned
		for _, thr := range []float64{0.5, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -3} {
			pool := findValues(thr)
			for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 64, 100, 257} {
				for _, off := range []int{0, 1, 3} {
					for _, c := range []Cand{CandGE, CandLE, CandLENaN} {
						checkFind(t, rng, kern, c, thr, pool, n, off)
					}
				}
			}
		}
	}
}

func checkFind(t *testing.T, rng *rand.Rand, kern bool, c Cand, thr float64, pool []float64, n, off int) {
	t.Helper()
	// Background: values that never pass, then one value of the pool at
	// each position in turn (position n: none).
	bg := 0.0
	switch {
	case c == CandGE:
		bg = math.Inf(-1)
	default:
		bg = math.Inf(1)
	}
	for pos := 0; pos <= n; pos++ {
		for _, v := range pool {
			x64 := make([]float64, n)
			for i := range x64 {
				x64[i] = bg
				if rng.IntN(8) == 0 {
					x64[i] = pool[rng.IntN(len(pool))]
				}
			}
			for i := pos; i < n; i++ {
				if i == pos {
					x64[i] = v
				}
			}
			// Everything before pos fails the test, so that pos or a
			// later element is the answer.
			for i := 0; i < pos; i++ {
				if passes(c, x64[i], thr) {
					x64[i] = bg
				}
			}
			// One spare byte in front: odd offsets make the payload
			// misaligned (read in place where the CPU allows it).
			skew := rng.IntN(2)
			b32 := make([]byte, 4*(off+n)+1)[skew:]
			b64 := make([]byte, 8*(off+n)+1)[skew:]
			x32 := make([]float32, n)
			for i, x := range x64 {
				x32[i] = float32(x)
				binary.LittleEndian.PutUint32(b32[4*(off+i):], math.Float32bits(x32[i]))
				binary.LittleEndian.PutUint64(b64[8*(off+i):], math.Float64bits(x))
			}
			if got, want := FindF32(b32, off, n, c, float32(thr)), findRef(x32, c, float32(thr)); got != want {
				t.Fatalf("kernel %v cand %d thr %v n %d off %d pos %d v %v: FindF32 %d, want %d", kern, c, thr, n, off, pos, v, got, want)
			}
			if got, want := FindF64(b64, off, n, c, thr), findRef(x64, c, thr); got != want {
				t.Fatalf("kernel %v cand %d thr %v n %d off %d pos %d v %v: FindF64 %d, want %d", kern, c, thr, n, off, pos, v, got, want)
			}
		}
	}
}
