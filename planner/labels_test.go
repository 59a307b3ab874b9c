package planner_test

import (
	"sync"
	"testing"

	"github.com/tetsql/tetsql/planner"
)

func TestLabels(t *testing.T) {
	t.Parallel()
	sorted := []string{"2024-01", "2024-02", "2024-03", "2024-04", "2024-05"}
	unsorted := []string{"d", "b", "e", "a", "c"}
	dups := []string{"x", "y", "x", "z", "w"}
	g, err := planner.NewGeometry([]int64{5, 5, 5}, []int64{2, 2, 2}, [][]string{sorted, unsorted, dups})
	if err != nil {
		t.Fatal(err)
	}
	if !g.LabelsSorted(0) || g.LabelsSorted(1) || g.LabelsSorted(2) {
		t.Fatal("LabelsSorted wrong")
	}
	if !g.LabelsUnique(0) || !g.LabelsUnique(1) || g.LabelsUnique(2) {
		t.Fatal("LabelsUnique wrong")
	}
	tests := []struct {
		axis     int
		op       planner.Op
		v        any
		want     span
		honoured bool
	}{
		{0, planner.OpEQ, "2024-03", span{2, 3}, true},
		{0, planner.OpEQ, "2024-03x", span{0, 0}, true},
		{0, planner.OpEQ, "1999", span{0, 0}, true},
		{0, planner.OpLT, "2024-03", span{0, 2}, true},
		{0, planner.OpLE, "2024-03", span{0, 3}, true},
		{0, planner.OpGT, "2024-03", span{3, 5}, true},
		{0, planner.OpGE, "2024-03", span{2, 5}, true},
		{0, planner.OpGE, "2024-025", span{2, 5}, true}, // between two labels
		{0, planner.OpLT, "2024-025", span{0, 2}, true},
		{0, planner.OpGT, "2099", span{0, 0}, true},
		{0, planner.OpLT, "", span{0, 0}, true},
		{0, planner.OpGE, "", span{0, 5}, true},
		{0, planner.OpEQ, nil, span{0, 0}, true},
		{0, planner.OpLT, nil, span{0, 0}, true},
		{0, planner.OpEQ, int64(2024), span{0, 5}, false},       // number vs TEXT: SQLite decides
		{0, planner.OpLT, 3.5, span{0, 5}, false},               // ditto
		{0, planner.OpEQ, []byte("2024-03"), span{0, 5}, false}, // BLOB never equals TEXT
		{1, planner.OpEQ, "e", span{2, 3}, true},
		{1, planner.OpEQ, "zz", span{0, 0}, true},
		{1, planner.OpLT, "c", span{0, 5}, false}, // unsorted: range left to SQLite
		{1, planner.OpGE, "c", span{0, 5}, false},
		{1, planner.OpEQ, nil, span{0, 0}, true},
		{2, planner.OpEQ, "y", span{1, 2}, true},  // unique on a dup axis: exact
		{2, planner.OpEQ, "x", span{0, 3}, false}, // duplicated: first..last, SQLite re-checks
		{2, planner.OpEQ, "q", span{0, 0}, true},
		{2, planner.OpGT, "x", span{0, 5}, false},
	}
	for _, tc := range tests {
		p, err := g.NewPlan([]planner.Constraint{{Target: planner.Label(tc.axis), Op: tc.op, Value: tc.v}})
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := p.Interval(tc.axis)
		if tc.want.lo == tc.want.hi {
			if !p.Empty() || p.Honoured(0) != tc.honoured {
				t.Errorf("label%d %v %q: want empty, got [%d,%d) honoured %v", tc.axis, tc.op, tc.v, lo, hi, p.Honoured(0))
			}
			continue
		}
		if (span{lo, hi}) != tc.want || p.Honoured(0) != tc.honoured {
			t.Errorf("label%d %v %q: [%d,%d) honoured %v, want [%d,%d) %v",
				tc.axis, tc.op, tc.v, lo, hi, p.Honoured(0), tc.want.lo, tc.want.hi, tc.honoured)
		}
	}
}

func TestLabelsConcurrent(t *testing.T) {
	t.Parallel()
	labels := make([]string, 1000)
	for i := range labels {
		labels[i] = string(rune('a'+i%26)) + string(rune('a'+i/26)) // unsorted, unique
	}
	g, err := planner.NewGeometry([]int64{1000}, []int64{64}, [][]string{labels})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			var p planner.Plan
			for i := w; i < 1000; i += 8 {
				if err := p.Reset(g, []planner.Constraint{{Target: planner.Label(0), Op: planner.OpEQ, Value: labels[i]}}); err != nil {
					t.Error(err)
					return
				}
				if lo, hi := p.Interval(0); lo != int64(i) || hi != int64(i)+1 || !p.Honoured(0) {
					t.Errorf("label %q: [%d,%d)", labels[i], lo, hi)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestUsable(t *testing.T) {
	t.Parallel()
	g, _ := planner.NewGeometry([]int64{3, 3, 3, 3}, []int64{2, 2, 2, 2},
		[][]string{{"a", "b", "c"}, {"c", "a", "b"}, {"a", "a", "b"}, nil})
	pn, pt := planner.Prunes|planner.ExactNumeric, planner.Prunes|planner.ExactText
	tests := []struct {
		t    planner.Target
		op   planner.Op
		want planner.Usage
	}{
		{planner.Dim(0), planner.OpEQ, pn},
		{planner.Dim(3), planner.OpGE, pn},
		{planner.Dim(4), planner.OpEQ, 0},
		{planner.Dim(-1), planner.OpEQ, 0},
		{planner.RowID(), planner.OpLT, pn},
		{planner.Label(0), planner.OpEQ, pt},
		{planner.Label(0), planner.OpLT, pt},
		{planner.Label(1), planner.OpEQ, pt},
		{planner.Label(1), planner.OpGT, 0},
		{planner.Label(2), planner.OpEQ, planner.Prunes},
		{planner.Label(2), planner.OpLE, 0},
		{planner.Label(3), planner.OpEQ, 0},
		{planner.Target{}, planner.OpLimit, pn},
		{planner.Target{}, planner.OpOffset, pn},
		{planner.Dim(0), planner.Op(0), 0},
		{planner.Dim(0), planner.Op(99), 0},
	}
	for _, tc := range tests {
		if got := g.Usable(tc.t, tc.op); got != tc.want {
			t.Errorf("Usable(%+v, %v) = %b, want %b", tc.t, tc.op, got, tc.want)
		}
	}
}
