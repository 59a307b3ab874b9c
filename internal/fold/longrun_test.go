package fold_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

// TestFoldBox_longRuns folds 1-D float runs of lengths around the SIMD
// widths and the block length, at every alignment, with NaN only (folded
// in the vector loop) or NaN and ±Inf (redone by the slow path), through
// every kernel level the CPU runs. Not parallel: it switches kernels.
func TestFoldBox_longRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	lengths := []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 33, 8191, 8192, 8193, 8200, 20000, 70001}
	for _, level := range fold.Kernels() {
		t.Logf("kernel %s", fold.KernelName(level))
		restore := fold.UseKernel(level)
		for _, dt := range []array.DType{array.F32, array.F64, array.F16} {
			for _, n := range lengths {
				for _, special := range []string{"none", "nan", "nan+inf", "allnan"} {
					shiftBy := rng.IntN(dt.Size() + 1) // 0, 1 byte, or one element (misaligned for 32-byte loads)
					data := longRun(rng, dt, n, special, shiftBy)
					name := fmt.Sprintf("%s/%v/n=%d/%s/shift=%d", fold.KernelName(level), dt, n, special, shiftBy)
					s, err := fold.FoldBox(dt, data[shiftBy:], []int64{int64(n)}, []int64{0}, []int64{int64(n)})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					r := newRef()
					for i := range n {
						r.add(dt, data[shiftBy:], i)
					}
					r.check(t, dt, name, s)
				}
			}
		}
		restore()
	}
}

// longRun returns shiftBy junk bytes followed by n elements of dt drawn
// around a random offset, with specials as named.
func longRun(rng *rand.Rand, dt array.DType, n int, special string, shiftBy int) []byte {
	b := make([]byte, shiftBy+n*dt.Size())
	for i := range shiftBy {
		b[i] = 0xff
	}
	off := []float64{0, -3, 1e3, 1e5}[rng.IntN(4)]
	scale := []float64{1, 1e-3, 50}[rng.IntN(3)]
	for i := range n {
		v := off + scale*rng.NormFloat64()
		switch {
		case special == "allnan",
			special != "none" && rng.IntN(50) == 0:
			v = math.NaN()
		case special == "nan+inf" && rng.IntN(2000) == 0:
			v = math.Inf(1 - 2*rng.IntN(2))
		}
		put(dt, b[shiftBy:], i, v)
	}
	return b
}

// TestFoldBox_cancellation folds runs where every vector lane (of 4, 8
// or 16) sees big, big, 1, 1, −big, −big, 1, 1, …: without compensation
// each lane would lose its ones, with it the sum is exact. b60 = 2^60 is
// exact in f32 and f64. Not parallel: it switches kernels.
func TestFoldBox_cancellation(t *testing.T) {
	const b60 = 0x1p60
	for _, level := range fold.Kernels() {
		restore := fold.UseKernel(level)
		for _, dt := range []array.DType{array.F32, array.F64} {
			for _, n := range []int{16, 64, 1000, 8192, 10000} {
				vals := make([]float64, n)
				exact := new(big.Float).SetPrec(200)
				for i := range vals {
					vals[i] = []float64{b60, 1, -b60, 1}[(i/16)%4]
					exact.Add(exact, big.NewFloat(vals[i]))
				}
				want, _ := exact.Float64()
				data := encode(dt, vals...)
				s, err := fold.FoldBox(dt, data, []int64{int64(n)}, []int64{0}, []int64{int64(n)})
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := s.Sum(); got != want {
					t.Errorf("%s %v n=%d: sum %v, want %v", fold.KernelName(level), dt, n, got, want)
				}
			}
		}
		restore()
	}
}

// TestFoldBox_cancellationScattered places pairs of ±2^60 and small
// integers at random positions, so that the large values land in
// different lanes and cancel only when the lanes are combined (inside
// the kernels or after them): every error term must be kept for the sum
// to come out exact. Every kernel level, f32 and f64. Not parallel: it
// switches kernels.
func TestFoldBox_cancellationScattered(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, level := range fold.Kernels() {
		restore := fold.UseKernel(level)
		for _, dt := range []array.DType{array.F32, array.F64} {
			for iter := range 300 {
				n := 16 + rng.IntN(200)
				vals := make([]float64, n)
				want := 0.0
				for range 1 + rng.IntN(4) {
					i, j := rng.IntN(n), rng.IntN(n)
					if i != j && vals[i] == 0 && vals[j] == 0 {
						vals[i], vals[j] = 0x1p60, -0x1p60
					}
				}
				for range 1 + rng.IntN(4) {
					if i := rng.IntN(n); vals[i] == 0 {
						vals[i] = float64(1 + rng.IntN(3))
						want += vals[i]
					}
				}
				data := encode(dt, vals...)
				s, err := fold.FoldBox(dt, data, []int64{int64(n)}, []int64{0}, []int64{int64(n)})
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := s.Sum(); got != want {
					t.Fatalf("%s %v iter %d: sum %v, want %v (%v)", fold.KernelName(level), dt, iter, got, want, vals)
				}
			}
		}
		restore()
	}
}
