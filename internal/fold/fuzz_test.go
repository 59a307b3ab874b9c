package fold_test

import (
	"encoding/binary"
	"math"
	"math/big"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

// FuzzFloatKernels folds arbitrary bytes as one f32 or f64 block with
// every kernel level the CPU runs and requires, against the portable
// kernel, the same counts,
// minimum and maximum, sums within a few ulps of the exact sum (both are
// compensated), and variances that agree to rounding.
func FuzzFloatKernels(f *testing.F) {
	f.Add(encode(array.F32, 1, 2, 3, 4, 5, 6, 7, 8, 9), false)
	f.Add(encode(array.F32, math.NaN(), 1, math.Inf(1), -2, 0, 0, 0, 0, 3, 4), false)
	f.Add(encode(array.F64, 1e16, 1, -1e16, 1, 5, math.NaN(), 7, 8), true)
	f.Add(encode(array.F64, 1e308, 1e308, -1e308, 0, 1), true)
	f.Add(encode(array.F32, 3e38, 3e38, 3e38, 3e38, 3e38, 3e38, 3e38, 3e38), false)
	f.Fuzz(func(t *testing.T, data []byte, wide bool) {
		var absSum float64
		var xs any
		exact := new(big.Float).SetPrec(2200)
		add := func(x float64) {
			if x == x && !math.IsInf(x, 0) {
				exact.Add(exact, big.NewFloat(x))
			}
		}
		if wide {
			v := make([]float64, min(len(data)/8, 8192))
			for i := range v {
				v[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
				if v[i] == v[i] {
					absSum += math.Abs(v[i])
				}
				add(v[i])
			}
			xs = v
		} else {
			v := make([]float32, min(len(data)/4, 8192))
			for i := range v {
				v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
				if v[i] == v[i] {
					absSum += math.Abs(float64(v[i]))
				}
				add(float64(v[i]))
			}
			xs = v
		}
		port := fold.FoldFloatBlock(xs, fold.Kernels()[len(fold.Kernels())-1])
		for _, level := range fold.Kernels() {
			checkKernel(t, fold.KernelName(level), fold.FoldFloatBlock(xs, level), port, exact, absSum)
		}
	})
}

// checkKernel compares one kernel's fold of a block with the portable
// kernel's and the exact sum.
func checkKernel(t *testing.T, name string, vec, port fold.Stats, exact *big.Float, absSum float64) {
	t.Helper()
	if vec.Count() != port.Count() || vec.NullCount() != port.NullCount() {
		t.Fatalf("%s: count %d/%d null %d/%d", name, vec.Count(), port.Count(), vec.NullCount(), port.NullCount())
	}
	for _, get := range []func(fold.Stats) (float64, bool){fold.Stats.Min, fold.Stats.Max} {
		a, aok := get(vec)
		b, bok := get(port)
		if aok != bok || a != b {
			t.Fatalf("%s: min/max %v %v, portable %v %v", name, a, aok, b, bok)
		}
	}
	close := func(a, b, scale float64) bool {
		return a == b || math.Abs(a-b) <= 1e-12*scale || (math.IsNaN(a) && math.IsNaN(b))
	}
	a, aok := vec.Sum()
	b, bok := port.Sum()
	if aok != bok || !close(a, b, absSum) {
		t.Fatalf("%s: sum %v %v, portable %v %v (Σ|x| %v)", name, a, aok, b, bok, absSum)
	}
	if want, _ := exact.Float64(); aok && !math.IsInf(absSum, 0) && !math.IsInf(a, 0) &&
		math.Abs(a-want) > 4e-16*math.Abs(want)+1e-27*absSum {
		t.Fatalf("%s: sum %v, exact %v (Σ|x| %v)", name, a, want, absSum)
	}
	va, vaok := vec.Var()
	vb, vbok := port.Var()
	if m, _ := port.Mean(); vaok != vbok || !close(va, vb, 1e4*(vb+m*m)) {
		t.Fatalf("%s: var %v %v, portable %v %v", name, va, vaok, vb, vbok)
	}
}
