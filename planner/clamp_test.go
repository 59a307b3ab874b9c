package planner_test

import (
	"math"
	"testing"

	"github.com/tetsql/tetsql/planner"
)

type span struct{ lo, hi int64 } // expected half-open interval; {0,0} = empty

func TestClamp(t *testing.T) {
	t.Parallel()
	g, err := planner.NewGeometry([]int64{10}, []int64{3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, none := span{0, 10}, span{0, 0}
	d := planner.Dim(0)
	c := func(op planner.Op, v any) planner.Constraint { return planner.Constraint{Target: d, Op: op, Value: v} }
	tests := []struct {
		name     string
		cs       []planner.Constraint
		want     span
		honoured bool
	}{
		{"no constraint", nil, all, true},
		{"int eq", []planner.Constraint{c(planner.OpEQ, int64(4))}, span{4, 5}, true},
		{"int lt", []planner.Constraint{c(planner.OpLT, int64(4))}, span{0, 4}, true},
		{"int le", []planner.Constraint{c(planner.OpLE, int64(4))}, span{0, 5}, true},
		{"int gt", []planner.Constraint{c(planner.OpGT, int64(4))}, span{5, 10}, true},
		{"int ge", []planner.Constraint{c(planner.OpGE, int64(4))}, span{4, 10}, true},
		{"lt 2.5 is le 2", []planner.Constraint{c(planner.OpLT, 2.5)}, span{0, 3}, true},
		{"le 2.5", []planner.Constraint{c(planner.OpLE, 2.5)}, span{0, 3}, true},
		{"gt 2.5", []planner.Constraint{c(planner.OpGT, 2.5)}, span{3, 10}, true},
		{"ge 2.5", []planner.Constraint{c(planner.OpGE, 2.5)}, span{3, 10}, true},
		{"eq 2.5 matches nothing", []planner.Constraint{c(planner.OpEQ, 2.5)}, none, true},
		{"eq 3.0 is eq 3", []planner.Constraint{c(planner.OpEQ, 3.0)}, span{3, 4}, true},
		{"lt 3.0", []planner.Constraint{c(planner.OpLT, 3.0)}, span{0, 3}, true},
		{"eq -0.0", []planner.Constraint{c(planner.OpEQ, math.Copysign(0, -1))}, span{0, 1}, true},
		{"lt 0.5", []planner.Constraint{c(planner.OpLT, 0.5)}, span{0, 1}, true},
		{"le -0.5", []planner.Constraint{c(planner.OpLE, -0.5)}, none, true},
		{"gt -0.5", []planner.Constraint{c(planner.OpGT, -0.5)}, all, true},
		{"gt 8.999", []planner.Constraint{c(planner.OpGT, 8.999)}, span{9, 10}, true},
		{"gt -1e300 is everything", []planner.Constraint{c(planner.OpGT, -1e300)}, all, true},
		{"lt 1e300", []planner.Constraint{c(planner.OpLT, 1e300)}, all, true},
		{"ge 1e300", []planner.Constraint{c(planner.OpGE, 1e300)}, none, true},
		{"eq 1e300", []planner.Constraint{c(planner.OpEQ, 1e300)}, none, true},
		{"eq -1e300", []planner.Constraint{c(planner.OpEQ, -1e300)}, none, true},
		{"lt +Inf", []planner.Constraint{c(planner.OpLT, math.Inf(1))}, all, true},
		{"gt +Inf", []planner.Constraint{c(planner.OpGT, math.Inf(1))}, none, true},
		{"ge -Inf", []planner.Constraint{c(planner.OpGE, math.Inf(-1))}, all, true},
		{"le -Inf", []planner.Constraint{c(planner.OpLE, math.Inf(-1))}, none, true},
		{"eq +Inf", []planner.Constraint{c(planner.OpEQ, math.Inf(1))}, none, true},
		{"eq NaN", []planner.Constraint{c(planner.OpEQ, math.NaN())}, none, true},
		{"lt NaN", []planner.Constraint{c(planner.OpLT, math.NaN())}, none, true},
		{"ge NaN", []planner.Constraint{c(planner.OpGE, math.NaN())}, none, true},
		{"eq NULL", []planner.Constraint{c(planner.OpEQ, nil)}, none, true},
		{"ge NULL", []planner.Constraint{c(planner.OpGE, nil)}, none, true},
		{"lt MinInt64", []planner.Constraint{c(planner.OpLT, int64(math.MinInt64))}, none, true},
		{"le MinInt64", []planner.Constraint{c(planner.OpLE, int64(math.MinInt64))}, none, true},
		{"gt MinInt64", []planner.Constraint{c(planner.OpGT, int64(math.MinInt64))}, all, true},
		{"ge MinInt64", []planner.Constraint{c(planner.OpGE, int64(math.MinInt64))}, all, true},
		{"le MaxInt64", []planner.Constraint{c(planner.OpLE, int64(math.MaxInt64))}, all, true},
		{"lt MaxInt64", []planner.Constraint{c(planner.OpLT, int64(math.MaxInt64))}, all, true},
		{"gt MaxInt64", []planner.Constraint{c(planner.OpGT, int64(math.MaxInt64))}, none, true},
		{"eq MaxInt64", []planner.Constraint{c(planner.OpEQ, int64(math.MaxInt64))}, none, true},
		{"eq MinInt64", []planner.Constraint{c(planner.OpEQ, int64(math.MinInt64))}, none, true},
		{"le 2^63 float", []planner.Constraint{c(planner.OpLE, 0x1p63)}, all, true},
		{"gt -2^63 float", []planner.Constraint{c(planner.OpGT, -0x1p63)}, all, true},
		{"eq 2^63 float", []planner.Constraint{c(planner.OpEQ, 0x1p63)}, none, true},
		{"out of range high", []planner.Constraint{c(planner.OpGE, int64(10))}, none, true},
		{"out of range low", []planner.Constraint{c(planner.OpLT, int64(0))}, none, true},
		{"le 0", []planner.Constraint{c(planner.OpLE, int64(0))}, span{0, 1}, true},
		{"eq -1", []planner.Constraint{c(planner.OpEQ, int64(-1))}, none, true},
		{"intersection", []planner.Constraint{c(planner.OpGE, int64(2)), c(planner.OpLT, 5.5), c(planner.OpGT, 3.5)}, span{4, 6}, true},
		{"empty intersection", []planner.Constraint{c(planner.OpGT, int64(5)), c(planner.OpLT, int64(5))}, none, true},
		{"text not honoured", []planner.Constraint{c(planner.OpEQ, "3")}, all, false},
		{"blob not honoured", []planner.Constraint{c(planner.OpLT, []byte("3"))}, all, false},
		{"bool not honoured", []planner.Constraint{c(planner.OpLT, true)}, all, false},
		{"text does not hide numbers", []planner.Constraint{c(planner.OpEQ, "x"), c(planner.OpLT, int64(2))}, span{0, 2}, false},
	}
	for _, tc := range tests {
		for _, kind := range []planner.Kind{planner.KindDim, planner.KindRowID} {
			cs := make([]planner.Constraint, len(tc.cs))
			for i, c := range tc.cs {
				c.Target.Kind = kind
				cs[i] = c
			}
			p, err := g.NewPlan(cs)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			lo, hi := p.Interval(0)
			if (span{lo, hi}) != tc.want || p.AllHonoured() != tc.honoured {
				t.Errorf("%s (kind %d): interval [%d,%d) honoured %v, want [%d,%d) %v",
					tc.name, kind, lo, hi, p.AllHonoured(), tc.want.lo, tc.want.hi, tc.honoured)
			}
			if n := tc.want.hi - tc.want.lo; p.SelectedRows() != n || p.Empty() != (n == 0) {
				t.Errorf("%s: SelectedRows %d Empty %v, want %d", tc.name, p.SelectedRows(), p.Empty(), n)
			}
			if _, _, f := p.RowIDFilter(); f {
				t.Errorf("%s: rank-1 rowid range needs no filter", tc.name)
			}
		}
	}
}

func TestEmptyDataset(t *testing.T) {
	t.Parallel()
	g, err := planner.NewGeometry([]int64{4, 0, 3}, []int64{2, 2, 2}, [][]string{nil, {}, nil})
	if err != nil {
		t.Fatal(err)
	}
	if g.Elements() != 0 || g.NumChunks() != 0 || g.GridSize(1) != 0 {
		t.Fatalf("elements %d chunks %d", g.Elements(), g.NumChunks())
	}
	p, err := g.NewPlan([]planner.Constraint{{Target: planner.Label(1), Op: planner.OpEQ, Value: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Empty() || p.EstimatedRows() != 0 || p.ChunkCount() != 0 || p.Iter().Next() {
		t.Fatal("plan over an empty dataset must be empty")
	}
	if _, ok := p.Iter().NextSkip(5); ok {
		t.Fatal("NextSkip on an empty plan")
	}
	if e := g.Estimate(nil); e != (planner.Estimate{}) {
		t.Fatalf("Estimate %+v", e)
	}
}

func TestLimitOffset(t *testing.T) {
	t.Parallel()
	g, _ := planner.NewGeometry([]int64{10}, []int64{3}, nil)
	tests := []struct {
		limit, offset any
		wantLimit     int64
		limitOK       bool
		wantOffset    int64
		honoured      bool
	}{
		{int64(5), int64(2), 5, true, 2, true},
		{int64(-1), int64(-3), -1, false, 0, true},
		{3.0, 4.0, 3, true, 4, true},
		{2.5, "1", -1, false, 0, false},
		{nil, nil, -1, false, 0, false},
	}
	for _, tc := range tests {
		p, err := g.NewPlan([]planner.Constraint{{Op: planner.OpLimit, Value: tc.limit}, {Op: planner.OpOffset, Value: tc.offset}})
		if err != nil {
			t.Fatal(err)
		}
		n, ok := p.Limit()
		if ok != tc.limitOK || (ok && n != tc.wantLimit) || p.Offset() != tc.wantOffset || p.AllHonoured() != tc.honoured {
			t.Errorf("LIMIT %v OFFSET %v: limit %d %v offset %d honoured %v", tc.limit, tc.offset, n, ok, p.Offset(), p.AllHonoured())
		}
		if p.SelectedRows() != 10 {
			t.Errorf("LIMIT/OFFSET must not change the selection: %d", p.SelectedRows())
		}
	}
}
