package fold_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

// TestPicker_elemsMatchesBox: feeding a box's elements as packed pieces
// with their rowids (Elems, how value-filtered selections are fed), in
// any order of groups and pieces, gives the quantiles and first extremes
// that feeding the box does.
func TestPicker_elemsMatchesBox(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range tetcoreDTypes() {
		for round := 0; round < 20; round++ {
			ng, n := 1+rng.Int64N(4), 1+rng.Int64N(300)
			vals := make([]float64, ng*n)
			for i := range vals {
				switch {
				case dt.IsFloat() && rng.IntN(8) == 0:
					vals[i] = math.NaN()
				case dt.IsFloat() && rng.IntN(15) == 0:
					vals[i] = math.Inf(1 - 2*rng.IntN(2))
				default:
					vals[i] = float64(rng.IntN(7))
				}
			}
			var data []byte
			if dt == array.I8 {
				data = make([]byte, len(vals))
				for i, v := range vals {
					data[i] = byte(int8(v))
				}
			} else {
				data = encode(dt, vals...)
			}
			extent, lo := []int64{ng, n}, []int64{0, 0}
			stride := []int64{1, 0}
			groups := make([]fold.Stats, ng)
			if err := fold.FoldGroups(dt, data, extent, lo, extent, stride, 0, groups); err != nil {
				t.Fatal(err)
			}
			rowStride := []int64{1000, 1}
			box := fold.NewPicker(dt, groups, true, true, true)
			if err := box.Box(data, extent, lo, extent, stride, 0, rowStride, 3); err != nil {
				t.Fatal(err)
			}
			el := fold.NewPicker(dt, groups, true, true, true)
			size := int64(dt.Size())
			for g := ng - 1; g >= 0; g-- { // groups last to first
				for i := int64(0); i < n; {
					k := min(n-i, 1+rng.Int64N(70))
					rids := make([]int64, k)
					for j := range rids {
						rids[j] = 3 + g*1000 + i + int64(j)
					}
					off := (g*n + i) * size
					if err := el.Elems(g, data[off:off+k*size], rids); err != nil {
						t.Fatal(err)
					}
					i += k
				}
			}
			if !el.Complete() || !box.Complete() {
				t.Fatalf("%v: incomplete", dt)
			}
			for g := range int(ng) {
				for _, q := range []float64{0, 0.3, 0.5, 1} {
					a, aok := box.Quantile(g, q)
					b, bok := el.Quantile(g, q)
					if aok != bok || aok && math.Float64bits(a) != math.Float64bits(b) {
						t.Fatalf("%v group %d q=%v: Elems %v %v, Box %v %v", dt, g, q, b, bok, a, aok)
					}
				}
				a1, ok1 := box.ArgMin(g)
				b1, ok2 := el.ArgMin(g)
				a2, ok3 := box.ArgMax(g)
				b2, ok4 := el.ArgMax(g)
				if a1 != b1 || ok1 != ok2 || a2 != b2 || ok3 != ok4 {
					t.Fatalf("%v group %d: Elems argmin %d %v argmax %d %v, Box %d %v %d %v", dt, g, b1, ok2, b2, ok4, a1, ok1, a2, ok3)
				}
			}
		}
	}
}

// TestPicker_elemsErrors: a group out of range, too few bytes, and more
// elements than the fold counted fail.
func TestPicker_elemsErrors(t *testing.T) {
	data := encode(array.F32, 1, 2, 3)
	groups := make([]fold.Stats, 1)
	if err := fold.FoldGroups(array.F32, data[:8], []int64{2}, []int64{0}, []int64{2}, []int64{0}, 0, groups); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		g    int64
		data []byte
		rids []int64
		want string
	}{
		{1, data[:4], []int64{0}, "group 1 of 1"},
		{-1, data[:4], []int64{0}, "group -1 of 1"},
		{0, data[:4], []int64{0, 1}, "4 bytes for 2 elements"},
		{0, data, []int64{0, 1, 2}, "more elements than its fold counted"},
	} {
		p := fold.NewPicker(array.F32, groups, true, true, false)
		err := p.Elems(tc.g, tc.data, tc.rids)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Elems(%d, %d bytes, %v): %v, want %q", tc.g, len(tc.data), tc.rids, err, tc.want)
		}
	}
}
