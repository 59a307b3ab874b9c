package fold_test

import (
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

// TestFold_i8 folds signed bytes (whole, a sub-box, grouped) and checks
// count, sum, min, max and var against direct sums.
func TestFold_i8(t *testing.T) {
	const rows, cols = 37, 29
	data := make([]byte, rows*cols)
	for i := range data {
		data[i] = byte(int8(i*37 - 128))
	}
	at := func(r, c int) int64 { return int64(int8(data[r*cols+c])) }
	s, err := fold.FoldBox(array.I8, data, []int64{rows, cols}, []int64{3, 2}, []int64{30, 27})
	if err != nil {
		t.Fatal(err)
	}
	var n, sum, mn, mx int64 = 0, 0, 127, -128
	var sq float64
	for r := 3; r < 30; r++ {
		for c := 2; c < 27; c++ {
			v := at(r, c)
			n, sum, mn, mx = n+1, sum+v, min(mn, v), max(mx, v)
		}
	}
	mean := float64(sum) / float64(n)
	for r := 3; r < 30; r++ {
		for c := 2; c < 27; c++ {
			d := float64(at(r, c)) - mean
			sq += d * d
		}
	}
	gotSum, _ := s.ExactSum()
	gotMin, _ := s.IntMin()
	gotMax, _ := s.IntMax()
	gotVar, _ := s.Var()
	if s.Count() != n || gotSum.String() != fold.Int128FromInt64(sum).String() || gotMin != mn || gotMax != mx ||
		gotVar < sq/float64(n)*(1-1e-12) || gotVar > sq/float64(n)*(1+1e-12) {
		t.Errorf("count %d sum %v min %d max %d var %v; want %d %d %d %d %v", s.Count(), gotSum, gotMin, gotMax, gotVar, n, sum, mn, mx, sq/float64(n))
	}
	stride, groups := fold.Strides([]int64{rows, cols}, []bool{true, false})
	out := make([]fold.Stats, groups)
	if err := fold.FoldGroups(array.I8, data, []int64{rows, cols}, []int64{0, 0}, []int64{rows, cols}, stride, 0, out); err != nil {
		t.Fatal(err)
	}
	for r := range rows {
		var want int64
		for c := range cols {
			want += at(r, c)
		}
		if got, _ := out[r].Sum(); got != float64(want) {
			t.Errorf("row %d: sum %v, want %d", r, got, want)
		}
	}
}
