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

// partials folds random consecutive pieces of a rank-1 payload.
func partials(t *testing.T, rng *rand.Rand, dt array.DType, data []byte, n int64) []fold.Stats {
	var ps []fold.Stats
	for lo := int64(0); lo < n; {
		hi := min(n, lo+1+rng.Int64N(300))
		s, err := fold.FoldBox(dt, data, []int64{n}, []int64{lo}, []int64{hi})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, s)
		lo = hi
	}
	return ps
}

func tree(ps []fold.Stats) fold.Stats {
	if len(ps) == 1 {
		return ps[0]
	}
	return fold.Merge(tree(ps[:len(ps)/2]), tree(ps[len(ps)/2:]))
}

func TestMerge_orders(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 20000
	for _, dt := range allDTypes {
		data := randPayload(rng, dt, n, 0)
		if dt == array.F64 { // a large offset: 1e9 + noise
			for i := range n {
				put(dt, data, i, 1e9+rng.NormFloat64())
			}
		}
		ps := partials(t, rng, dt, data, n)
		left, right := fold.Stats{}, fold.Stats{}
		for i := range ps {
			left = fold.Merge(left, ps[i])
			right = fold.Merge(ps[len(ps)-1-i], right)
		}
		shuffled := slices.Clone(ps)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		results := map[string]fold.Stats{"left": left, "right": right, "tree": tree(ps), "shuffled tree": tree(shuffled)}
		r := newRef()
		for i := range n {
			r.add(dt, data, i)
		}
		for name, s := range results {
			r.check(t, dt, name, s)
			agree(t, fmt.Sprintf("%v %s vs left", dt, name), s, left)
		}
	}
}

// agree checks that two Stats of the same elements match: counts, min and
// max exactly, sum, mean and var within 1e-12 relative.
func agree(t *testing.T, what string, a, b fold.Stats) {
	t.Helper()
	if a.Count() != b.Count() || a.NullCount() != b.NullCount() {
		t.Fatalf("%s: counts differ", what)
	}
	for _, f := range []struct {
		name   string
		ga, gb func() (float64, bool)
		tol    float64
	}{{"sum", a.Sum, b.Sum, 1e-12}, {"mean", a.Mean, b.Mean, 1e-12}, {"var", a.Var, b.Var, 1e-12},
		{"min", a.Min, b.Min, 0}, {"max", a.Max, b.Max, 0}} {
		x, okx := f.ga()
		y, oky := f.gb()
		if okx != oky || math.Abs(x-y) > f.tol*math.Abs(y) {
			t.Fatalf("%s: %s %v vs %v", what, f.name, x, y)
		}
	}
}

func TestMerge_identity(t *testing.T) {
	t.Parallel()
	s, _ := fold.FoldBox(array.F64, encode(array.F64, 1, 2, nan), []int64{3}, []int64{0}, []int64{3})
	nulls, _ := fold.FoldBox(array.F64, encode(array.F64, nan, nan), []int64{2}, []int64{0}, []int64{2})
	if fold.Merge(fold.Stats{}, s) != s || fold.Merge(s, fold.Stats{}) != s {
		t.Fatal("the zero Stats is not the identity")
	}
	for _, m := range []fold.Stats{fold.Merge(s, nulls), fold.Merge(nulls, s)} {
		if m.Count() != 2 || m.NullCount() != 3 {
			t.Fatalf("merge with NaN-only partial: %d %d", m.Count(), m.NullCount())
		}
		if sum, _ := m.Sum(); sum != 3 {
			t.Fatalf("sum %v", sum)
		}
	}
}

// TestFoldGroups_offset checks the variance of 1e9 + N(0,1) data on every
// path: whole box, groups along either axis, and one element per group
// per chunk accumulated over many chunks.
func TestFoldGroups_offset(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	const rows, cols = 256, 64
	data := make([]byte, rows*cols*8)
	for i := range rows * cols {
		put(array.F64, data, i, 1e9+rng.NormFloat64())
	}
	b := box{[]int64{rows, cols}, []int64{0, 0}, []int64{rows, cols}, nil}
	for _, keep := range [][]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
		b.keep = keep
		stride, groups := fold.Strides(b.size(), keep)
		refs := b.reference(array.F64, data, stride, 0, groups)
		out := make([]fold.Stats, groups)
		if err := fold.FoldGroups(array.F64, data, b.extent, b.lo, b.hi, stride, 0, out); err != nil {
			t.Fatal(err)
		}
		for g := range out {
			refs[g].check(t, array.F64, fmt.Sprintf("keep %v group %d", keep, g), out[g])
		}
	}
	// Columns as groups, one row (chunk) at a time: every step pushes a
	// single element into each group.
	stride := []int64{0, 1}
	out := make([]fold.Stats, cols)
	for r := range int64(rows) {
		chunk := data[r*cols*8 : (r+1)*cols*8]
		if err := fold.FoldGroups(array.F64, chunk, []int64{1, cols}, []int64{0, 0}, []int64{1, cols}, stride, 0, out); err != nil {
			t.Fatal(err)
		}
	}
	b.keep = []bool{false, true}
	refs := b.reference(array.F64, data, stride, 0, cols)
	for g := range out {
		refs[g].check(t, array.F64, fmt.Sprintf("row by row group %d", g), out[g])
	}
}
