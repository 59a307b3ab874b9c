package fold_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

// A 2×3 chunk of f32, grouped by its first axis (rows): the column axis
// is reduced. NaN counts as NULL.
func ExampleFoldGroups() {
	vals := []float32{1, 2, 3, 10, float32(math.NaN()), 30}
	data := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	extent := []int64{2, 3}
	lo, hi := []int64{0, 0}, []int64{2, 3}
	stride, groups := fold.Strides([]int64{2, 3}, []bool{true, false}) // [1 0], 2
	out := make([]fold.Stats, groups)
	if err := fold.FoldGroups(array.F32, data, extent, lo, hi, stride, 0, out); err != nil {
		panic(err)
	}
	for g, s := range out {
		sum, _ := s.Sum()
		mean, _ := s.Mean()
		vr, _ := s.Var()
		fmt.Printf("row %d: count=%d null=%d sum=%g mean=%g var=%g\n", g, s.Count(), s.NullCount(), sum, mean, vr)
	}
	// Output:
	// row 0: count=3 null=0 sum=6 mean=2 var=0.6666666666666666
	// row 1: count=2 null=1 sum=40 mean=20 var=100
}

// Integer sums are exact; IntSum reports whether the sum fits an int64.
func ExampleStats_IntSum() {
	data := make([]byte, 8*3)
	for i := range 3 {
		binary.LittleEndian.PutUint64(data[8*i:], math.MaxInt64)
	}
	s, _ := fold.FoldBox(array.I64, data, []int64{3}, []int64{0}, []int64{3})
	_, fits := s.IntSum()
	exact, _ := s.ExactSum()
	sum, _ := s.Sum()
	fmt.Println(fits, exact, sum)
	// Output: false 27670116110564327421 2.7670116110564327e+19
}
