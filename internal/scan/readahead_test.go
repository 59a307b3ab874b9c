package scan_test

import (
	"runtime"
	"testing"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/planner"
)

// TestCellScan_automaticReadAhead: with ReadAhead 0 a scan reads ahead
// only over several chunks that must be decoded, without a pushed-down
// LIMIT; -1 never reads ahead; a set ReadAhead also reads in-place
// chunks ahead. The fake's even chunks are in place, its odd ones
// decoded; 4 chunks of 3 elements.
func TestCellScan_automaticReadAhead(t *testing.T) {
	from := func(lo int64) []planner.Constraint {
		return []planner.Constraint{{Target: planner.Dim(0), Op: planner.OpGE, Value: lo}}
	}
	auto := scan.AutoReadAhead(scan.NewSession(nil))
	for _, tc := range []struct {
		name      string
		readAhead int
		cons      []planner.Constraint
		limit     int64
		want      bool
		depth     int
	}{
		{"decoded first chunk", 0, from(3), -1, true, auto},
		{"in-place first chunk", 0, from(0), -1, false, 0},
		{"one chunk", 0, from(9), -1, false, 0},
		{"pushed-down limit", 0, from(3), 5, false, 0},
		{"off", -1, from(3), -1, false, 0},
		{"set, in place", 2, from(0), -1, true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := openFake(t, fakeHeader{Shape: []int64{12}, Chunk: []int64{3}})
			sess := scan.NewSession(nil)
			sess.ReadAhead = tc.readAhead
			r := scan.NewReader(src.Arrays()[0], "main.a", 0)
			in := r.Array().Info()
			geom, err := planner.NewGeometry(in.Shape, in.ChunkShape, in.Labels)
			if err != nil {
				t.Fatal(err)
			}
			if err := sess.Pin(r.Array().Source(), r.Table()); err != nil {
				t.Fatal(err)
			}
			c := scan.NewCellScan(r, sess)
			defer c.Close()
			var plan planner.Plan
			c.Begin()
			if err := plan.Reset(geom, tc.cons); err != nil {
				t.Fatal(err)
			}
			if err := c.Start(&plan, 0, tc.limit, nil); err != nil {
				t.Fatal(err)
			}
			on, depth := c.ReadingAhead()
			if on != tc.want || on && depth != tc.depth {
				t.Errorf("reading ahead %v (depth %d), want %v (depth %d)", on, depth, tc.want, tc.depth)
			}
			n := 0
			for ; !c.Eof(); n++ {
				if err := c.Next(); err != nil {
					t.Fatal(err)
				}
			}
			want := 12 - int(tc.cons[0].Value.(int64))
			if tc.limit >= 0 {
				want = min(want, int(tc.limit))
			}
			if n != want {
				t.Errorf("%d rows, want %d", n, want)
			}
		})
	}
}

// TestAutoReadAhead: two chunks ahead per decoding goroutine, which are
// DecodeParallelism or min(GOMAXPROCS, MaxAutoParallelism).
func TestAutoReadAhead(t *testing.T) {
	sess := scan.NewSession(nil)
	if got, want := scan.AutoReadAhead(sess), 2*min(runtime.GOMAXPROCS(0), scan.MaxAutoParallelism); got != want {
		t.Errorf("default: %d, want %d", got, want)
	}
	sess.DecodeParallelism = 3
	if got := scan.AutoReadAhead(sess); got != 6 {
		t.Errorf("DecodeParallelism 3: %d, want 6", got)
	}
	sess.DecodeParallelism = 40
	if got := scan.AutoReadAhead(sess); got != 64 {
		t.Errorf("DecodeParallelism 40: %d, want 64 (MaxReadAhead)", got)
	}
}
