package planner_test

import (
	"fmt"
	"testing"

	"github.com/tetsql/tetsql/planner"
)

// steadyState returns a geometry, a constraint set touching every code path
// that runs per Filter call (dims, floats, a sorted-label range, an
// unsorted-label range, a rowid range that needs the filter).
func steadyState(tb testing.TB) (*planner.Geometry, []planner.Constraint) {
	sorted, unsorted := make([]string, 64), make([]string, 4096)
	for i := range sorted {
		sorted[i] = fmt.Sprintf("k%03d", i)
	}
	for i := range unsorted {
		unsorted[i] = fmt.Sprintf("u%04d", 4095-i)
	}
	g, err := planner.NewGeometry([]int64{64, 4096, 4096}, []int64{8, 256, 256}, [][]string{sorted, nil, unsorted})
	if err != nil {
		tb.Fatal(err)
	}
	return g, []planner.Constraint{
		{Target: planner.Label(0), Op: planner.OpGE, Value: "k010"},
		{Target: planner.Label(0), Op: planner.OpLT, Value: "k030"},
		{Target: planner.Dim(1), Op: planner.OpGT, Value: 100.5},
		{Target: planner.Dim(1), Op: planner.OpLE, Value: int64(3000)},
		{Target: planner.Label(2), Op: planner.OpGE, Value: "u1000"}, // unsorted range: ignored
		{Target: planner.RowID(), Op: planner.OpGE, Value: int64(10*4096*4096 + 500*4096 + 7)},
		{Target: planner.RowID(), Op: planner.OpLT, Value: int64(28*4096*4096 + 2000*4096 + 5)},
	}
}

func TestSteadyStateZeroAlloc(t *testing.T) {
	g, cs := steadyState(t)
	eq := []planner.Constraint{{Target: planner.Label(2), Op: planner.OpEQ, Value: "u0042"}}
	var p planner.Plan
	var it planner.Iter
	run := func() {
		for _, set := range [][]planner.Constraint{cs, eq} {
			if err := p.Reset(g, set); err != nil {
				t.Fatal(err)
			}
			for it.Reset(&p); it.Next(); {
			}
			it.Reset(&p)
			it.NextSkip(123456789)
			g.Estimate(set)
		}
	}
	run() // warm: label indexes, honoured slice
	if err := p.Reset(g, cs); err != nil {
		t.Fatal(err)
	}
	if _, _, f := p.RowIDFilter(); !f || p.ChunkCount() < 100 {
		t.Fatalf("steady state should need the rowid filter over many chunks: %v, %d", f, p.ChunkCount())
	}
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Fatalf("%.1f allocations per plan+iterate, want 0", n)
	}
}

func BenchmarkPlanIterate(b *testing.B) {
	g, cs := steadyState(b)
	var p planner.Plan
	var it planner.Iter
	chunks := 0
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Reset(g, cs); err != nil {
			b.Fatal(err)
		}
		chunks = 0
		for it.Reset(&p); it.Next(); {
			chunks++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
	b.ReportMetric(float64(chunks), "chunks/op")
}

// BenchmarkIterateMillionChunks walks a 1e9-element array in 1e6 chunks.
func BenchmarkIterateMillionChunks(b *testing.B) {
	g, err := planner.NewGeometry([]int64{1_000_000, 1000}, []int64{1000, 1}, nil)
	if err != nil {
		b.Fatal(err)
	}
	var p planner.Plan
	var it planner.Iter
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Reset(g, nil); err != nil {
			b.Fatal(err)
		}
		for it.Reset(&p); it.Next(); {
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/chunk")
}

// BenchmarkDeepOffset skips to the last chunk of the same plan.
func BenchmarkDeepOffset(b *testing.B) {
	g, _ := planner.NewGeometry([]int64{1_000_000, 1000}, []int64{1000, 1}, nil)
	p, _ := g.NewPlan([]planner.Constraint{{Target: planner.Dim(1), Op: planner.OpGE, Value: int64(1)}})
	var it planner.Iter
	b.ReportAllocs()
	for b.Loop() {
		it.Reset(p)
		if _, ok := it.NextSkip(p.SelectedRows() - 1); !ok {
			b.Fatal("ran out")
		}
	}
}
