package planner_test

import (
	"testing"

	"github.com/tetsql/tetsql/planner"
)

func TestEstimate(t *testing.T) {
	t.Parallel()
	labels := make([]string, 100)
	for i := range labels {
		labels[i] = string(rune('A'+i%50)) + "x" // duplicates, unsorted
	}
	g, err := planner.NewGeometry([]int64{4096, 4096, 100}, []int64{256, 256, 30}, [][]string{nil, nil, labels})
	if err != nil {
		t.Fatal(err)
	}
	c := func(tg planner.Target, op planner.Op) planner.Constraint {
		return planner.Constraint{Target: tg, Op: op}
	}
	const full = 4096 * 4096 * 100
	tests := []struct {
		name string
		cs   []planner.Constraint
		want planner.Estimate
	}{
		{"full scan", nil, planner.Estimate{Rows: full, Selected: full, Chunks: 16 * 16 * 4}},
		{"y =", []planner.Constraint{c(planner.Dim(0), planner.OpEQ)},
			planner.Estimate{Rows: 256 * 4096 * 100, Selected: 4096 * 100, Chunks: 16 * 4}},
		{"y = and x =", []planner.Constraint{c(planner.Dim(0), planner.OpEQ), c(planner.Dim(1), planner.OpEQ)},
			planner.Estimate{Rows: 256 * 256 * 100, Selected: 100, Chunks: 4}},
		{"y BETWEEN", []planner.Constraint{c(planner.Dim(0), planner.OpGE), c(planner.Dim(0), planner.OpLE)},
			planner.Estimate{Rows: 256 * 4096 * 100, Selected: 256 * 4096 * 100, Chunks: 16 * 4}},
		{"y <", []planner.Constraint{c(planner.Dim(0), planner.OpLT)},
			planner.Estimate{Rows: 1024 * 4096 * 100, Selected: 1024 * 4096 * 100, Chunks: 4 * 16 * 4}},
		{"label = on a duplicated axis still prunes", []planner.Constraint{c(planner.Label(2), planner.OpEQ)},
			planner.Estimate{Rows: 4096 * 4096 * 30, Selected: 4096 * 4096, Chunks: 16 * 16}},
		{"unsorted label range ignored", []planner.Constraint{c(planner.Label(2), planner.OpLT)},
			planner.Estimate{Rows: full, Selected: full, Chunks: 16 * 16 * 4}},
		{"rowid =", []planner.Constraint{c(planner.RowID(), planner.OpEQ)},
			planner.Estimate{Rows: 256 * 256 * 30, Selected: 1, Chunks: 1}},
		{"rowid >", []planner.Constraint{c(planner.RowID(), planner.OpGT)},
			planner.Estimate{Rows: 1024 * 4096 * 100, Selected: 1024 * 4096 * 100, Chunks: 4 * 16 * 4}},
		{"LIMIT ignored", []planner.Constraint{{Op: planner.OpLimit}},
			planner.Estimate{Rows: full, Selected: full, Chunks: 16 * 16 * 4}},
		{"invalid ignored", []planner.Constraint{c(planner.Dim(7), planner.OpEQ)},
			planner.Estimate{Rows: full, Selected: full, Chunks: 16 * 16 * 4}},
	}
	for _, tc := range tests {
		got := g.Estimate(tc.cs)
		// Axis holds the factors of Selected.
		if n := got.Axis[0] * got.Axis[1] * got.Axis[2]; n != got.Selected {
			t.Errorf("%s: axis counts %v multiply to %d, selected %d", tc.name, got.Axis[:3], n, got.Selected)
		}
		if got.Axis = [planner.MaxRank]int64{}; got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if e := g.Estimate([]planner.Constraint{c(planner.Dim(0), planner.OpEQ), c(planner.Label(2), planner.OpLT)}); e.Axis[0] != 1 || e.Axis[1] != 4096 || e.Axis[2] != 100 {
		t.Errorf("axis counts %v, want [1 4096 100] (an unsorted label range prunes nothing)", e.Axis[:3])
	}
	// The BestIndex estimate of an equality agrees with the Filter-time plan.
	p, _ := g.NewPlan([]planner.Constraint{{Target: planner.Dim(0), Op: planner.OpEQ, Value: int64(1000)},
		{Target: planner.Dim(1), Op: planner.OpEQ, Value: int64(2000)}})
	e := g.Estimate([]planner.Constraint{c(planner.Dim(0), planner.OpEQ), c(planner.Dim(1), planner.OpEQ)})
	if p.EstimatedRows() != e.Rows || p.ChunkCount() != e.Chunks || p.SelectedRows() != e.Selected {
		t.Errorf("plan %d rows %d chunks %d selected, estimate %+v", p.EstimatedRows(), p.ChunkCount(), p.SelectedRows(), e)
	}
}

// TestPlanEstimate: terms of unknown value priced within the selection
// of the terms whose values are known.
func TestPlanEstimate(t *testing.T) {
	t.Parallel()
	g, err := planner.NewGeometry([]int64{4096, 4096, 100}, []int64{256, 256, 30}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := g.NewPlan([]planner.Constraint{{Target: planner.Dim(0), Op: planner.OpGE, Value: int64(0)},
		{Target: planner.Dim(0), Op: planner.OpLE, Value: int64(255)}})
	e := p.Estimate([]planner.Constraint{{Target: planner.Dim(1), Op: planner.OpEQ}})
	want := planner.Estimate{Rows: 256 * 256 * 100, Selected: 256 * 100, Chunks: 4, Axis: [planner.MaxRank]int64{256, 1, 100}}
	if e != want {
		t.Errorf("y BETWEEN 0 AND 255, x = ?: %+v, want %+v", e, want)
	}
	if e := p.Estimate(nil); e.Selected != p.SelectedRows() || e.Rows != p.EstimatedRows() || e.Chunks != p.ChunkCount() {
		t.Errorf("no further terms: %+v, plan %d selected %d rows %d chunks", e, p.SelectedRows(), p.EstimatedRows(), p.ChunkCount())
	}
	p, _ = g.NewPlan([]planner.Constraint{{Target: planner.Dim(2), Op: planner.OpGT, Value: int64(500)}})
	if e := p.Estimate([]planner.Constraint{{Target: planner.Dim(1), Op: planner.OpEQ}}); e != (planner.Estimate{}) {
		t.Errorf("empty plan: %+v", e)
	}
}
