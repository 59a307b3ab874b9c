package planner_test

import (
	"fmt"

	"github.com/tetsql/tetsql/planner"
)

// A 4096×4096 grid (axes y, x) in 256×256 chunks: 256 chunks in all.
func Example() {
	g, err := planner.NewGeometry([]int64{4096, 4096}, []int64{256, 256}, nil)
	if err != nil {
		panic(err)
	}
	const y, x = 0, 1
	c := func(d int, op planner.Op, v any) planner.Constraint {
		return planner.Constraint{Target: planner.Dim(d), Op: op, Value: v}
	}
	var p planner.Plan // one per cursor, reused by every Filter call
	var it planner.Iter
	filter := func(query string, cs ...planner.Constraint) {
		if err := p.Reset(g, cs); err != nil {
			panic(err)
		}
		chunks := 0
		for it.Reset(&p); it.Next(); {
			chunks++
		}
		fmt.Printf("%-32s %2d chunks, %7d rows selected, EstimatedRows %d\n", query, chunks, p.SelectedRows(), p.EstimatedRows())
	}
	filter("y = 1000 AND x = 2000", c(y, planner.OpEQ, int64(1000)), c(x, planner.OpEQ, int64(2000)))
	filter("y BETWEEN 0 AND 255", c(y, planner.OpGE, int64(0)), c(y, planner.OpLE, int64(255)))
	filter("y = 5000", c(y, planner.OpEQ, int64(5000)))
	// SQLite runs IN (…) as one Filter call per value.
	for _, v := range []int64{3, 4000} {
		filter(fmt.Sprintf("x = %d AND y < 300", v), c(x, planner.OpEQ, v), c(y, planner.OpLT, int64(300)))
	}
	// Output:
	// y = 1000 AND x = 2000             1 chunks,       1 rows selected, EstimatedRows 65536
	// y BETWEEN 0 AND 255              16 chunks, 1048576 rows selected, EstimatedRows 1048576
	// y = 5000                          0 chunks,       0 rows selected, EstimatedRows 0
	// x = 3 AND y < 300                 2 chunks,     300 rows selected, EstimatedRows 131072
	// x = 4000 AND y < 300              2 chunks,     300 rows selected, EstimatedRows 131072
}

// BestIndex sees operators but no values: ask what the planner would do
// with each constraint and price the plan.
func ExampleGeometry_Estimate() {
	days := []string{"2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"}
	g, _ := planner.NewGeometry([]int64{4, 1000}, []int64{1, 100}, [][]string{days, nil})
	cs := []planner.Constraint{
		{Target: planner.Label(0), Op: planner.OpGE},
		{Target: planner.Dim(1), Op: planner.OpEQ},
	}
	for _, c := range cs {
		u := g.Usable(c.Target, c.Op)
		fmt.Printf("%v %v: prunes=%v exact for numbers=%v exact for text=%v\n",
			c.Target, c.Op, u&planner.Prunes != 0, u&planner.ExactNumeric != 0, u&planner.ExactText != 0)
	}
	e := g.Estimate(cs)
	fmt.Printf("rows %d, selected %d, chunks %d, per axis %v\n", e.Rows, e.Selected, e.Chunks, e.Axis[:g.Rank()])
	// Output:
	// label 0 >=: prunes=true exact for numbers=false exact for text=true
	// dim 1 =: prunes=true exact for numbers=true exact for text=false
	// rows 100, selected 1, chunks 1, per axis [1 1]
}

// OFFSET deep into the data: whole chunks are skipped without being visited.
func ExampleIter_NextSkip() {
	g, _ := planner.NewGeometry([]int64{1000, 1000}, []int64{10, 1000}, nil)
	p, _ := g.NewPlan([]planner.Constraint{{Target: planner.Dim(1), Op: planner.OpLT, Value: int64(10)}})
	it := p.Iter()
	rest, ok := it.NextSkip(5005) // 100 selected elements per chunk
	c := it.Chunk()
	fmt.Println(ok, c.Coords, c.Selected, rest)
	// Output:
	// true [50 0] 100 5
}
