package fold_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

// refQuantile is the definition, on a sorted copy: x[⌊h⌋] + (h−⌊h⌋)·
// (x[⌈h⌉] − x[⌊h⌋]), with fold.Lerp's rules where that is NaN.
func refQuantile(xs []float64, q float64) (float64, bool) {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0, false
	}
	h := float64(len(s)-1) * q
	lo, hi := int(math.Floor(h)), int(math.Ceil(h))
	a, b, t := s[lo], s[hi], h-math.Floor(h)
	switch {
	case t == 0 || a == b:
		return a + 0, true // −0 reads as +0
	case math.IsInf(a, -1) && math.IsInf(b, 1):
		return 0, false
	case math.IsInf(a, -1):
		return a, true
	case math.IsInf(b, 1):
		return b, true
	}
	return a + t*(b-a), true
}

func TestQuantile_matchesSortedDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	palette := []float64{math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1.5, -2.25, 7}
	for round := 0; round < 3000; round++ {
		n := rng.IntN(70)
		if round%100 == 0 {
			n = 5000 + rng.IntN(5000) // past the insertion-sort cut-off, many rounds
		}
		xs := make([]float64, n)
		for i := range xs {
			switch rng.IntN(4) {
			case 0:
				xs[i] = palette[rng.IntN(len(palette))]
			case 1:
				xs[i] = float64(rng.IntN(5)) // heavy duplicates
			default:
				xs[i] = rng.NormFloat64() * 1e3
			}
		}
		for _, q := range []float64{0, 1, 0.5, 0.9, 1e-9, rng.Float64()} {
			want, wok := refQuantile(xs, q)
			got, ok := fold.Quantile(slices.Clone(xs), q)
			if ok != wok || ok && math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("n=%d q=%v: got %v %v, want %v %v", n, q, got, ok, want, wok)
			}
			f32 := make([]float32, n)
			for i, x := range xs {
				f32[i] = float32(x)
			}
			ref32 := make([]float64, n)
			for i, x := range f32 {
				ref32[i] = float64(x)
			}
			want, wok = refQuantile(ref32, q)
			got, ok = fold.Quantile(f32, q)
			if ok != wok || ok && got != want {
				t.Fatalf("f32 n=%d q=%v: got %v %v, want %v %v", n, q, got, ok, want, wok)
			}
		}
	}
}

func TestSelect_partitionsAroundK(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 500; round++ {
		n := 1 + rng.IntN(3000)
		xs := make([]int64, n)
		span := 1 + rng.Int64N(int64(n)*2)
		for i := range xs {
			xs[i] = rng.Int64N(span)
		}
		if round%7 == 0 {
			slices.Sort(xs) // sorted and reversed inputs: the pivot's bad cases
			if round%14 == 0 {
				slices.Reverse(xs)
			}
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		k := rng.IntN(n)
		fold.Select(xs, k)
		if xs[k] != sorted[k] {
			t.Fatalf("n=%d k=%d: got %d, want %d", n, k, xs[k], sorted[k])
		}
		for i := range xs {
			if i < k && xs[i] > xs[k] || i > k && xs[i] < xs[k] {
				t.Fatalf("n=%d k=%d: element %d = %d on the wrong side of %d", n, k, i, xs[i], xs[k])
			}
		}
	}
}

func TestLerp_infinitiesAndOverflow(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		a, b, t, want float64
		ok            bool
	}{
		{1, 3, 0.25, 1.5, true},
		{inf, inf, 0.5, inf, true},
		{-inf, -inf, 0.5, -inf, true},
		{-inf, 5, 0.9, -inf, true},
		{5, inf, 0.1, inf, true},
		{-inf, inf, 0.5, 0, false},
		{-math.MaxFloat64, math.MaxFloat64, 0.5, 0, true},
	} {
		got, ok := fold.Lerp(c.a, c.b, c.t)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("Lerp(%v, %v, %v) = %v %v, want %v %v", c.a, c.b, c.t, got, ok, c.want, c.ok)
		}
	}
}

// TestPicker_groupsAndFirstExtremes feeds random boxes of every dtype,
// grouped by the first axis, and checks quantiles and the first rowid of
// each group's minimum and maximum against a brute-force walk.
func TestPicker_groupsAndFirstExtremes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dt := range tetcoreDTypes() {
		for round := 0; round < 30; round++ {
			extent := []int64{1 + rng.Int64N(5), 1 + rng.Int64N(7), 1 + rng.Int64N(40)}
			n := extent[0] * extent[1] * extent[2]
			vals := make([]float64, n)
			for i := range vals {
				switch {
				case dt.IsFloat() && rng.IntN(10) == 0:
					vals[i] = math.NaN()
				case dt.IsFloat() && rng.IntN(20) == 0:
					vals[i] = math.Inf(1 - 2*rng.IntN(2))
				default:
					vals[i] = float64(rng.IntN(9) - 4)
					if dt == array.U8 || dt == array.U16 || dt == array.U32 || dt == array.U64 {
						vals[i] += 4
					}
				}
			}
			var data []byte
			if dt == array.I8 { // encode has no case of its own for i8
				data = make([]byte, n)
				for i, v := range vals {
					data[i] = byte(int8(v))
				}
			} else {
				data = encode(dt, vals...)
			}
			lo := []int64{0, rng.Int64N(extent[1]), 0}
			hi := []int64{extent[0], lo[1] + 1 + rng.Int64N(extent[1]-lo[1]), extent[2]}
			by := 2 * (round % 2) // group by the first or the last axis
			stride := []int64{0, 0, 0}
			stride[by] = 1
			groups := make([]fold.Stats, extent[by])
			if err := fold.FoldGroups(dt, data, extent, lo, hi, stride, 0, groups); err != nil {
				t.Fatal(err)
			}
			rowStride := []int64{1000, 100, 1}
			p := fold.NewPicker(dt, groups, true, true, true)
			if err := p.Box(data, extent, lo, hi, stride, 0, rowStride, 7); err != nil {
				t.Fatal(err)
			}
			if !p.Complete() {
				t.Fatal("incomplete")
			}
			// The reference walks in rowid order.
			type refG struct {
				xs         []float64
				amin, amax int64
				mn, mx     float64
			}
			ref := make([]refG, extent[by])
			for i := int64(0); i < extent[0]; i++ {
				for j := lo[1]; j < hi[1]; j++ {
					for k := int64(0); k < extent[2]; k++ {
						x := vals[(i*extent[1]+j)*extent[2]+k]
						if dt == array.F16 || dt == array.F32 {
							x = float64(float32(x))
						}
						if x != x {
							continue
						}
						r := &ref[[]int64{i, j, k}[by]]
						rid := 7 + i*1000 + j*100 + k
						if len(r.xs) == 0 || x < r.mn {
							r.mn, r.amin = x, rid
						}
						if len(r.xs) == 0 || x > r.mx {
							r.mx, r.amax = x, rid
						}
						r.xs = append(r.xs, x)
					}
				}
			}
			for g := int64(0); g < extent[by]; g++ {
				xs, amin, amax := ref[g].xs, ref[g].amin, ref[g].amax
				if len(xs) == 0 {
					amin, amax = -1, -1
				}
				for _, q := range []float64{0, 0.5, 0.9, 1} {
					want, wok := refQuantile(xs, q)
					got, ok := p.Quantile(int(g), q)
					if ok != wok || ok && got != want {
						t.Fatalf("%v group %d q=%v: got %v %v, want %v %v", dt, g, q, got, ok, want, wok)
					}
				}
				gmin, okMin := p.ArgMin(int(g))
				gmax, okMax := p.ArgMax(int(g))
				if okMin != (amin >= 0) || okMin && gmin != amin || okMax != (amax >= 0) || okMax && gmax != amax {
					t.Fatalf("%v group %d: argmin %d %v argmax %d %v, want %d %d", dt, g, gmin, okMin, gmax, okMax, amin, amax)
				}
			}
		}
	}
}

func tetcoreDTypes() []array.DType {
	return []array.DType{array.I8, array.U8, array.I16, array.U16, array.I32, array.U32, array.I64, array.U64, array.F16, array.F32, array.F64}
}

func ExampleQuantile() {
	xs := []float64{7, 1, math.Inf(1), 3, 5}
	med, _ := fold.Quantile(xs, 0.5) // sorted: 1 3 5 7 +Inf
	p90, _ := fold.Quantile(xs, 0.9) // between 7 and +Inf
	p10, _ := fold.Quantile(xs, 0.1) // 1 + 0.4·(3−1)
	fmt.Println(med, p90, p10)
	// Output: 5 +Inf 1.8
}

// TestFoldSmallBox_agreesWithFoldGroups: small and large boxes of every
// dtype, with NaN and ±Inf, fold to the same statistics either way.
func TestFoldSmallBox_agreesWithFoldGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range tetcoreDTypes() {
		for round := 0; round < 200; round++ {
			extent := []int64{1 + rng.Int64N(6), 1 + rng.Int64N(9), 1 + rng.Int64N(40)}
			n := extent[0] * extent[1] * extent[2]
			data := make([]byte, n*int64(dt.Size()))
			for i := range data {
				data[i] = byte(rng.IntN(256))
			}
			lo, hi := make([]int64, 3), make([]int64, 3)
			for d := range extent {
				lo[d] = rng.Int64N(extent[d])
				hi[d] = lo[d] + 1 + rng.Int64N(extent[d]-lo[d])
			}
			var want [1]fold.Stats
			if err := fold.FoldGroups(dt, data, extent, lo, hi, nil, 0, want[:]); err != nil {
				t.Fatal(err)
			}
			var got fold.Stats
			if err := fold.FoldSmallBox(dt, data, extent, lo, hi, &got); err != nil {
				t.Fatal(err)
			}
			w, g := want[0], got
			ws, wok := w.Sum()
			gs, gok := g.Sum()
			wm, _ := w.Min()
			gm, _ := g.Min()
			wx, _ := w.Max()
			gx, _ := g.Max()
			wv, wvok := w.Var()
			gv, gvok := g.Var()
			close := func(a, b float64) bool {
				return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))+1e-300
			}
			if w.Count() != g.Count() || w.NullCount() != g.NullCount() || wok != gok || wok && !close(ws, gs) ||
				wm != gm || wx != gx || finite(wv, wvok) != finite(gv, gvok) || finite(wv, wvok) && !close(wv, gv) {
				t.Fatalf("%v %v [%v, %v): FoldGroups %+v, FoldSmallBox %+v", dt, extent, lo, hi, w, g)
			}
			if ei, ok := w.ExactSum(); ok {
				if gi, _ := g.ExactSum(); gi != ei {
					t.Fatalf("%v: exact sums %v and %v", dt, ei, gi)
				}
			}
		}
	}
}

// finite reports a variance that did not overflow (an overflowed M2 is
// +Inf by one path and NaN by another: either way not a number to compare).
func finite(v float64, ok bool) bool { return ok && !math.IsInf(v, 0) && !math.IsNaN(v) }
