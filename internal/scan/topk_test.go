package scan_test

import (
	"slices"
	"testing"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/planner"
)

// topRows runs a top-k over the fake array (element i holds i) and
// returns its rowids and stats.
func topRows(t *testing.T, r scan.Reader, cons []planner.Constraint, n, offset int64, desc bool) ([]int64, scan.ScanStats) {
	t.Helper()
	in := r.Array().Info()
	geom, err := planner.NewGeometry(in.Shape, in.ChunkShape, in.Labels)
	if err != nil {
		t.Fatal(err)
	}
	var plan planner.Plan
	if err := plan.Reset(geom, cons); err != nil {
		t.Fatal(err)
	}
	var tk scan.TopK
	var st scan.ScanStats
	if err := tk.Run(&r, scan.NewSession(nil), &plan, n+offset, desc, false, &st); err != nil {
		t.Fatal(err)
	}
	var rows []int64
	for i := range tk.Len() {
		v, null := tk.Value(i)
		if null || v.F != float64(tk.Row(i)) {
			t.Fatalf("row %d: rowid %d value %v", i, tk.Row(i), v)
		}
		if int64(i) >= offset {
			rows = append(rows, tk.Row(i))
		}
	}
	return rows, st
}

// TestTopK_pages: pages of 3 rows give every selected row in order.
func TestTopK_pages(t *testing.T) {
	src := openFake(t, fakeHeader{Shape: []int64{10, 7}, Chunk: []int64{3, 4}})
	r := scan.NewReader(src.Arrays()[0], "main.a", 0)
	in := r.Array().Info()
	geom, err := planner.NewGeometry(in.Shape, in.ChunkShape, in.Labels)
	if err != nil {
		t.Fatal(err)
	}
	var plan planner.Plan
	if err := plan.Reset(geom, []planner.Constraint{{Target: planner.Dim(1), Op: planner.OpGE, Value: int64(3)}}); err != nil {
		t.Fatal(err)
	}
	for _, desc := range []bool{false, true} {
		var tk scan.TopK
		var st scan.ScanStats
		if err := tk.Run(&r, scan.NewSession(nil), &plan, 3, desc, false, &st); err != nil {
			t.Fatal(err)
		}
		var got, want []int64
		for pages := 0; ; pages++ {
			for i := range tk.Len() {
				got = append(got, tk.Row(i))
			}
			more, err := tk.More(3)
			if err != nil {
				t.Fatal(err)
			}
			if !more {
				break
			}
		}
		for id := int64(0); id < 70; id++ {
			if id%7 >= 3 {
				want = append(want, id)
			}
		}
		if desc {
			slices.Reverse(want)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("desc %v: pages gave %v, want %v", desc, got, want)
		}
	}
}

// TestTopK reads in-place and decoded chunks, keeps their statistics,
// skips by them on the next run, and trusts no statistics that do not
// count every element.
func TestTopK(t *testing.T) {
	src := openFake(t, fakeHeader{Shape: []int64{10, 7}, Chunk: []int64{3, 4}})
	r := scan.NewReader(src.Arrays()[0], "main.a", 0)
	cols := []planner.Constraint{{Target: planner.Dim(1), Op: planner.OpLT, Value: int64(6)}}
	rows, st := topRows(t, r, cols, 3, 1, true)
	if !slices.Equal(rows, []int64{67, 66, 65}) || st.ChunksDecoded != 8 || st.ChunksSkipped != 0 {
		t.Fatalf("first: rows %v, stats %+v", rows, st)
	}
	rows, st = topRows(t, r, cols, 3, 1, true)
	if !slices.Equal(rows, []int64{67, 66, 65}) || st.ChunksDecoded != 2 || st.ChunksSkipped != 6 {
		t.Fatalf("second: rows %v, stats %+v", rows, st)
	}
	rows, st = topRows(t, r, []planner.Constraint{{Target: planner.RowID(), Op: planner.OpGT, Value: int64(20)}}, 4, 0, false)
	if !slices.Equal(rows, []int64{21, 22, 23, 24}) || st.ChunksDecoded != 1 || st.ChunksSkipped != 5 {
		t.Fatalf("ascending: rows %v, stats %+v", rows, st)
	}
	// Statistics counting no element bound nothing: every chunk is read.
	for id := range int64(8) {
		src.Arrays()[0].PutStat(id, scan.ChunkStat{Min: scan.Num{F: 1e9, Real: true}, Max: scan.Num{F: -1e9, Real: true}})
	}
	for _, desc := range []bool{false, true} {
		rows, st = topRows(t, r, nil, 2, 0, desc)
		want := []int64{0, 1}
		if desc {
			want = []int64{69, 68}
		}
		if !slices.Equal(rows, want) || st.ChunksDecoded != 8 {
			t.Fatalf("unknown counts, desc %v: rows %v, stats %+v", desc, rows, st)
		}
	}
	if rows, _ := topRows(t, r, nil, 0, 0, true); len(rows) != 0 {
		t.Fatalf("LIMIT 0: %v", rows)
	}
	if rows, _ := topRows(t, r, nil, 5, 70, true); len(rows) != 0 {
		t.Fatalf("OFFSET past the end: %v", rows)
	}
}
