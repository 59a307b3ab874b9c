package planner_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/tetsql/tetsql/planner"
)

func TestParseLabelNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s     string
		isInt bool
		i     int64
		f     float64
		ok    bool
	}{
		{"0", true, 0, 0, true},
		{"7", true, 7, 0, true},
		{"-90", true, -90, 0, true},
		{"9223372036854775807", true, math.MaxInt64, 0, true},
		{"-9223372036854775808", true, math.MinInt64, 0, true},
		{"9223372036854775808", false, 0, 0, false}, // an integer that int64 cannot hold
		{"-0", false, 0, 0, false},                  // the sign would be lost
		{"007", false, 0, 0, false},                 // a code: leading zeros would be lost
		{"00", false, 0, 0, false},
		{"-01", false, 0, 0, false},
		{"+5", false, 0, 0, false},
		{" 5", false, 0, 0, false},
		{"5 ", false, 0, 0, false},
		{"0x10", false, 0, 0, false},
		{"inf", false, 0, 0, false},
		{"nan", false, 0, 0, false},
		{"5.", false, 0, 0, false},
		{".5", false, 0, 0, false},
		{"1e", false, 0, 0, false},
		{"1e+", false, 0, 0, false},
		{"1_000", false, 0, 0, false},
		{"", false, 0, 0, false},
		{"-", false, 0, 0, false},
		{"1e400", false, 0, 0, false}, // not finite
		{"0.5", false, 0, 0.5, true},
		{"-89.75", false, 0, -89.75, true},
		{"90.00", false, 0, 90, true},
		{"1e3", false, 0, 1000, true},
		{"1E-3", false, 0, 0.001, true},
		{"2.5e+2", false, 0, 250, true},
		{"-0.0", false, 0, math.Copysign(0, -1), true},
		{"0.1", false, 0, 0.1, true},
		{"1e-400", false, 0, 0, true}, // underflows to 0, as SQLite reads it
	}
	for _, tc := range tests {
		i, f, isInt, ok := planner.ParseLabelNumber(tc.s)
		if ok != tc.ok || ok && (isInt != tc.isInt || i != tc.i || f != tc.f) {
			t.Errorf("%q: %d %g int=%v ok=%v, want %d %g int=%v ok=%v", tc.s, i, f, isInt, ok, tc.i, tc.f, tc.isInt, tc.ok)
		}
	}
}

func TestLabelType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		labels []string
		want   planner.LabelType
	}{
		{nil, planner.LabelNone},
		{[]string{"1", "2", "3"}, planner.LabelInteger},
		{[]string{"90", "89.5", "89"}, planner.LabelReal},
		{[]string{"1", "2", "x"}, planner.LabelText},
		{[]string{"007", "008", "009"}, planner.LabelText},
		{[]string{"2024-01-01", "2024-01-02", "2024-01-03"}, planner.LabelText},
		{[]string{"0.5", "9007199254740993", "1"}, planner.LabelText}, // 2^53+1 would change as a REAL
		{[]string{"9007199254740993", "0.5", "1"}, planner.LabelText},
		{[]string{"9007199254740992", "0.5", "1"}, planner.LabelReal},
		{[]string{"9007199254740993", "2", "1"}, planner.LabelInteger},
	}
	for _, tc := range tests {
		shape := []int64{3}
		labels := [][]string{tc.labels}
		if tc.labels == nil {
			labels = nil
		}
		g, err := planner.NewGeometry(shape, []int64{2}, labels)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.LabelType(0); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.labels, got, tc.want)
		}
	}
	g, _ := planner.NewGeometry([]int64{3, 3}, []int64{2, 2}, [][]string{{"90", "-0.0", "1e2"}, {"5", "-3", "0"}})
	if g.LabelReal(0, 0) != 90 || g.LabelReal(0, 2) != 100 || math.Signbit(g.LabelReal(0, 1)) || g.LabelInt(1, 1) != -3 {
		t.Errorf("numbers %v %v %v %v", g.LabelReal(0, 0), g.LabelReal(0, 1), g.LabelReal(0, 2), g.LabelInt(1, 1))
	}
}

// bigOf is an exact reference value of an SQL number.
func bigOf(v any) *big.Float {
	f := new(big.Float).SetPrec(200)
	switch x := v.(type) {
	case int64:
		return f.SetInt64(x)
	case float64:
		return f.SetFloat64(x)
	}
	panic(fmt.Sprintf("bigOf(%T)", v))
}

// refMatch is "label op v" by exact arithmetic; NULL and NaN match nothing.
func refMatch(label string, op planner.Op, v any) bool {
	if v == nil {
		return false
	}
	if f, ok := v.(float64); ok && math.IsNaN(f) {
		return false
	}
	var l any
	if i, err := strconv.ParseInt(label, 10, 64); err == nil {
		l = i
	} else {
		x, _ := strconv.ParseFloat(label, 64)
		l = x
	}
	c := bigOf(l).Cmp(bigOf(v))
	switch op {
	case planner.OpEQ:
		return c == 0
	case planner.OpLT:
		return c < 0
	case planner.OpLE:
		return c <= 0
	case planner.OpGT:
		return c > 0
	}
	return c >= 0
}

// numericAxis makes n labels: ascending or descending, strict or with
// repeats, or shuffled; integers or reals.
func numericAxis(rng *rand.Rand, n int) (labels []string, kind string) {
	real := rng.IntN(2) == 0
	step := 0.25 + float64(rng.IntN(3))
	start := float64(rng.IntN(200) - 100)
	vals := make([]float64, n)
	for j := range vals {
		vals[j] = start + step*float64(j)
		if rng.IntN(5) == 0 && j > 0 {
			vals[j] = vals[j-1] // a repeat: not strictly monotonic
		}
	}
	switch k := rng.IntN(3); k {
	case 1:
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			vals[i], vals[j] = vals[j], vals[i]
		}
		kind = "desc"
	case 2:
		rng.Shuffle(n, func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
		kind = "shuffled"
	default:
		kind = "asc"
	}
	labels = make([]string, n)
	for j, v := range vals {
		if real {
			labels[j] = strconv.FormatFloat(v, 'f', 2, 64)
		} else {
			labels[j] = strconv.FormatInt(int64(math.Floor(v)), 10)
		}
	}
	return labels, kind
}

// TestNumericLabels_differential: the plan of a label constraint on a
// numeric axis keeps every matching index, and exactly those when it
// reports the constraint honoured; ordered axes are always honoured.
func TestNumericLabels_differential(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 5))
	ops := []planner.Op{planner.OpEQ, planner.OpLT, planner.OpLE, planner.OpGT, planner.OpGE}
	for iter := range 300 {
		n := 1 + rng.IntN(40)
		labels, kind := numericAxis(rng, n)
		g, err := planner.NewGeometry([]int64{int64(n), 3}, []int64{int64(1 + rng.IntN(7)), 2}, [][]string{labels, nil})
		if err != nil {
			t.Fatal(err)
		}
		if g.LabelType(0) != planner.LabelInteger && g.LabelType(0) != planner.LabelReal {
			t.Fatalf("%q: type %v", labels, g.LabelType(0))
		}
		for range 40 {
			var v any
			l := labels[rng.IntN(n)]
			x, _ := strconv.ParseFloat(l, 64)
			switch rng.IntN(9) {
			case 0:
				v = int64(x)
			case 1:
				v = x
			case 2:
				v = x + 0.125 // between labels
			case 3:
				v = float64(rng.IntN(1000) - 500) // often outside
			case 4:
				v = nil
			case 5:
				v = math.NaN()
			case 6:
				v = math.Copysign(0, -1)
			case 7:
				v = []float64{math.Inf(1), math.Inf(-1), 1e300, 0x1p63, -0x1p63}[rng.IntN(5)]
			default:
				v = []int64{math.MaxInt64, math.MinInt64, 0, 1 << 53}[rng.IntN(4)]
			}
			op := ops[rng.IntN(len(ops))]
			p, err := g.NewPlan([]planner.Constraint{{Target: planner.Label(0), Op: op, Value: v}})
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := p.Interval(0)
			for j, lab := range labels {
				want := refMatch(lab, op, v)
				in := int64(j) >= lo && int64(j) < hi && !p.Empty()
				if want && !in || p.Honoured(0) && want != in {
					t.Fatalf("iter %d %s %q: label %s %v %v: index %d in plan [%d,%d) = %v, match %v (honoured %v)",
						iter, kind, labels, op, v, v, j, lo, hi, in, want, p.Honoured(0))
				}
				if m, ok := g.LabelMatch(0, int64(j), op, v); !ok || m != want {
					t.Fatalf("LabelMatch(%s %v %v) = %v %v, want %v", lab, op, v, m, ok, want)
				}
			}
			if kind != "shuffled" && !p.Honoured(0) {
				t.Fatalf("%s %q: label %v %v not honoured", kind, labels, op, v)
			}
			if u := g.Usable(planner.Label(0), op); u&planner.ExactNumeric != 0 && !p.Honoured(0) {
				t.Fatalf("%q: Usable says exact, plan not honoured for %v %v", labels, op, v)
			}
		}
	}
}

func TestNumericLabels_notNumbers(t *testing.T) {
	t.Parallel()
	g, _ := planner.NewGeometry([]int64{4}, []int64{2}, [][]string{{"90", "45", "0", "-45"}})
	if u := g.Usable(planner.Label(0), planner.OpLT); u != planner.Prunes|planner.ExactNumeric {
		t.Errorf("descending labels: usage %b", u)
	}
	for _, v := range []any{"45", []byte("45")} {
		p, _ := g.NewPlan([]planner.Constraint{{Target: planner.Label(0), Op: planner.OpEQ, Value: v}})
		if lo, hi := p.Interval(0); p.Honoured(0) || lo != 0 || hi != 4 {
			t.Errorf("%T: [%d,%d) honoured %v: TEXT and BLOB restrict nothing on a numeric axis", v, lo, hi, p.Honoured(0))
		}
		if _, ok := g.LabelMatch(0, 0, planner.OpEQ, v); ok {
			t.Errorf("LabelMatch(%T) ok", v)
		}
	}
	p, _ := g.NewPlan([]planner.Constraint{{Target: planner.Label(0), Op: planner.OpGT, Value: int64(0)},
		{Target: planner.Label(0), Op: planner.OpLE, Value: 45.0}})
	if lo, hi := p.Interval(0); lo != 1 || hi != 2 || !p.AllHonoured() {
		t.Errorf("0 < label <= 45 on 90,45,0,-45: [%d,%d), want [1,2)", lo, hi)
	}
}
