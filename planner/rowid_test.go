package planner_test

import (
	"testing"

	"github.com/tetsql/tetsql/planner"
)

func TestRowID(t *testing.T) {
	t.Parallel()
	// 4×5 array, 2×2 chunks: rowid = 5*row + col.
	g, _ := planner.NewGeometry([]int64{4, 5}, []int64{2, 2}, nil)
	rid := func(op planner.Op, v any) planner.Constraint {
		return planner.Constraint{Target: planner.RowID(), Op: op, Value: v}
	}
	tests := []struct {
		name       string
		cs         []planner.Constraint
		box        [2]span
		filter     bool
		selected   int64
		candidates int64 // ChunkCount
		estimated  int64
	}{
		{"rowid = 7", []planner.Constraint{rid(planner.OpEQ, int64(7))},
			[2]span{{1, 2}, {2, 3}}, false, 1, 1, 4},
		{"rowid = 7.0", []planner.Constraint{rid(planner.OpEQ, 7.0)},
			[2]span{{1, 2}, {2, 3}}, false, 1, 1, 4},
		{"whole rows 1..2", []planner.Constraint{rid(planner.OpGE, int64(5)), rid(planner.OpLT, 14.5)},
			[2]span{{1, 3}, {0, 5}}, false, 10, 6, 20},
		{"7 <= rowid < 13", []planner.Constraint{rid(planner.OpGE, int64(7)), rid(planner.OpLT, int64(13))},
			[2]span{{1, 3}, {0, 5}}, true, 6, 4, 14},
		{"inside one row", []planner.Constraint{rid(planner.OpGT, 5.5), rid(planner.OpLE, int64(8))},
			[2]span{{1, 2}, {1, 4}}, false, 3, 2, 8},
		{"rowid and dim", []planner.Constraint{rid(planner.OpGE, int64(7)), planner.Constraint{Target: planner.Dim(1), Op: planner.OpEQ, Value: int64(0)}},
			[2]span{{2, 4}, {0, 1}}, false, 2, 1, 4},
		{"rowid past the end", []planner.Constraint{rid(planner.OpGE, int64(20))}, [2]span{}, false, 0, 0, 0},
		{"rowid < 0", []planner.Constraint{rid(planner.OpLT, int64(0))}, [2]span{}, false, 0, 0, 0},
		{"rowid range misses the box", []planner.Constraint{rid(planner.OpGE, int64(6)), rid(planner.OpLE, int64(8)),
			planner.Constraint{Target: planner.Dim(1), Op: planner.OpEQ, Value: int64(0)}}, [2]span{}, false, 0, 0, 0},
		{"rowid text not honoured", []planner.Constraint{rid(planner.OpEQ, "7")}, [2]span{{0, 4}, {0, 5}}, false, 20, 6, 20},
	}
	for _, tc := range tests {
		p, err := g.NewPlan(tc.cs)
		if err != nil {
			t.Fatal(err)
		}
		for d := range 2 {
			if lo, hi := p.Interval(d); (span{lo, hi}) != tc.box[d] {
				t.Errorf("%s: axis %d [%d,%d), want %v", tc.name, d, lo, hi, tc.box[d])
			}
		}
		if _, _, f := p.RowIDFilter(); f != tc.filter {
			t.Errorf("%s: filter %v", tc.name, f)
		}
		if p.SelectedRows() != tc.selected || p.ChunkCount() != tc.candidates || p.EstimatedRows() != tc.estimated {
			t.Errorf("%s: selected %d chunks %d estimated %d, want %d %d %d", tc.name,
				p.SelectedRows(), p.ChunkCount(), p.EstimatedRows(), tc.selected, tc.candidates, tc.estimated)
		}
	}
}

// TestRowIDSkipsEmptyChunks: min/max rowid pruning keeps every column
// chunk of a 2×N array for a range straddling the row boundary, but only
// the two chunks holding selected elements are yielded.
func TestRowIDSkipsEmptyChunks(t *testing.T) {
	t.Parallel()
	g, _ := planner.NewGeometry([]int64{2, 1000}, []int64{2, 1}, nil)
	p, _ := g.NewPlan([]planner.Constraint{
		{Target: planner.RowID(), Op: planner.OpGE, Value: int64(999)},
		{Target: planner.RowID(), Op: planner.OpLE, Value: int64(1000)},
	})
	if p.ChunkCount() != 1000 || p.SelectedRows() != 2 || p.EstimatedRows() != 2000 {
		t.Fatalf("chunks %d selected %d estimated %d", p.ChunkCount(), p.SelectedRows(), p.EstimatedRows())
	}
	var got []int64
	for it := p.Iter(); it.Next(); {
		got = append(got, it.Chunk().ID)
	}
	if len(got) != 2 || got[0] != 0 || got[1] != 999 {
		t.Fatalf("chunks %v, want [0 999]", got)
	}
	it := p.Iter()
	if rest, ok := it.NextSkip(1); !ok || rest != 0 || it.Chunk().ID != 999 {
		t.Fatalf("NextSkip(1) = %d %v on chunk %d", rest, ok, it.Chunk().ID)
	}
}

func TestRavel(t *testing.T) {
	t.Parallel()
	shape := []int64{3, 4, 5}
	coords := make([]int64, 3)
	for id := range int64(60) {
		if err := planner.Unravel(shape, id, coords); err != nil {
			t.Fatal(err)
		}
		if coords[2] != id%5 || coords[1] != id/5%4 || coords[0] != id/20 {
			t.Fatalf("Unravel(%d) = %v", id, coords)
		}
		if back, err := planner.Ravel(shape, coords); err != nil || back != id {
			t.Fatalf("Ravel(%v) = %d, %v", coords, back, err)
		}
	}
	big := []int64{1 << 62, 4}
	if id, err := planner.Ravel(big, []int64{1<<62 - 1, 3}); err == nil {
		t.Fatalf("Ravel overflow not detected: %d", id)
	}
	if id, err := planner.Ravel(big, []int64{1<<61 - 1, 3}); err != nil || id != 1<<63-1 {
		t.Fatalf("Ravel at MaxInt64: %d %v", id, err)
	}
	for _, bad := range []struct {
		shape []int64
		id    int64
	}{{shape, 60}, {shape, -1}, {[]int64{3, 0}, 0}, {[]int64{}, 0}} {
		if err := planner.Unravel(bad.shape, bad.id, make([]int64, len(bad.shape))); err == nil {
			t.Errorf("Unravel(%v, %d) accepted", bad.shape, bad.id)
		}
	}
	if err := planner.Unravel(big, 1<<63-1, make([]int64, 2)); err != nil {
		t.Errorf("Unravel MaxInt64: %v", err)
	}
	for _, c := range [][]int64{{3, 0, 0}, {0, -1, 0}, {0, 0}} {
		if _, err := planner.Ravel(shape, c); err == nil {
			t.Errorf("Ravel(%v) accepted", c)
		}
	}
	g, _ := planner.NewGeometry(shape, []int64{2, 2, 2}, nil)
	if id, err := g.RowID([]int64{2, 3, 4}); err != nil || id != 59 {
		t.Errorf("RowID = %d %v", id, err)
	}
	if id, err := g.ChunkID([]int64{1, 1, 2}); err != nil || id != 1*2*3+1*3+2 {
		t.Errorf("ChunkID = %d %v", id, err)
	}
	if err := g.ElementCoords(59, coords); err != nil || coords[0] != 2 || coords[2] != 4 {
		t.Errorf("ElementCoords = %v %v", coords, err)
	}
}

func TestGeometryErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		shape, chunk []int64
		labels       [][]string
	}{
		{nil, nil, nil},
		{make([]int64, 9), []int64{1, 1, 1, 1, 1, 1, 1, 1, 1}, nil},
		{[]int64{4}, []int64{4, 4}, nil},
		{[]int64{4}, []int64{0}, nil},
		{[]int64{-1}, []int64{1}, nil},
		{[]int64{1 << 40, 1 << 40}, []int64{1, 1}, nil},
		{[]int64{2}, []int64{1}, [][]string{{"a"}}},
		{[]int64{2, 2}, []int64{1, 1}, [][]string{{"a", "b"}}},
	}
	for _, tc := range tests {
		if _, err := planner.NewGeometry(tc.shape, tc.chunk, tc.labels); err == nil {
			t.Errorf("NewGeometry(%v, %v, %v) accepted", tc.shape, tc.chunk, tc.labels)
		}
	}
	g, err := planner.NewGeometry([]int64{1<<62 + 1}, []int64{1 << 62}, nil)
	if err != nil || g.GridSize(0) != 2 || g.NumChunks() != 2 {
		t.Fatalf("huge axis: %v", err)
	}
	p, _ := g.NewPlan([]planner.Constraint{{Target: planner.Dim(0), Op: planner.OpGE, Value: int64(1 << 62)}})
	if p.ChunkCount() != 1 || p.EstimatedRows() != 1 || p.SelectedRows() != 1 {
		t.Fatalf("edge chunk of a huge axis: %d chunks, %d rows", p.ChunkCount(), p.EstimatedRows())
	}
}

func TestConstraintErrors(t *testing.T) {
	t.Parallel()
	g, _ := planner.NewGeometry([]int64{4, 4}, []int64{2, 2}, [][]string{{"a", "b", "c", "d"}, nil})
	bad := []planner.Constraint{
		{Target: planner.Dim(2), Op: planner.OpEQ, Value: int64(1)},
		{Target: planner.Dim(-1), Op: planner.OpEQ, Value: int64(1)},
		{Target: planner.Label(1), Op: planner.OpEQ, Value: "a"},
		{Target: planner.Dim(0), Op: planner.Op(0), Value: int64(1)},
		{Target: planner.Target{Kind: 9}, Op: planner.OpEQ, Value: int64(1)},
	}
	var p planner.Plan
	for _, c := range bad {
		if err := p.Reset(g, []planner.Constraint{c}); err == nil || !p.Empty() || p.Iter().Next() {
			t.Errorf("constraint %+v accepted (%v)", c, err)
		}
	}
}

// TestRowIDExhaustive crosses every dim box with every rowid range on two
// small geometries and checks each plan against brute force.
func TestRowIDExhaustive(t *testing.T) {
	t.Parallel()
	for _, geo := range []struct{ shape, chunk []int64 }{
		{[]int64{3, 4}, []int64{2, 3}},
		{[]int64{2, 3, 3}, []int64{1, 2, 2}},
	} {
		g, err := planner.NewGeometry(geo.shape, geo.chunk, nil)
		if err != nil {
			t.Fatal(err)
		}
		var p planner.Plan
		boxes := [][]planner.Constraint{nil}
		for d, n := range geo.shape {
			var next [][]planner.Constraint
			for _, b := range boxes {
				for lo := range n {
					for hi := lo + 1; hi <= n; hi++ {
						next = append(next, append(b[:len(b):len(b)],
							planner.Constraint{Target: planner.Dim(d), Op: planner.OpGE, Value: lo},
							planner.Constraint{Target: planner.Dim(d), Op: planner.OpLT, Value: hi}))
					}
				}
			}
			boxes = next
		}
		total := g.Elements()
		for _, box := range boxes {
			for a := range total {
				for b := a + 1; b <= total; b++ {
					cs := append(box[:len(box):len(box)],
						planner.Constraint{Target: planner.RowID(), Op: planner.OpGE, Value: a},
						planner.Constraint{Target: planner.RowID(), Op: planner.OpLT, Value: b})
					if err := p.Reset(g, cs); err != nil {
						t.Fatal(err)
					}
					checkPlan(t, g, &p, geo.shape, geo.chunk, nil, cs, (a*7+b)%5)
					if t.Failed() {
						t.Fatalf("shape %v: %+v", geo.shape, cs)
					}
				}
			}
		}
	}
}

func TestNilGeometry(t *testing.T) {
	t.Parallel()
	var p planner.Plan
	if err := p.Reset(nil, nil); err == nil || !p.Empty() || p.Iter().Next() {
		t.Fatal("nil geometry accepted")
	}
}
