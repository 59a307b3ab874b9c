package scan_test

import (
	"errors"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/planner"
)

// cellRows scans plan over a with the session's settings and returns the
// rowids and values in order.
func cellRows(t *testing.T, r scan.Reader, sess *scan.Session, cons []planner.Constraint, offset, limit int64) (ids []int64, vals []float64, st scan.ScanStats) {
	t.Helper()
	in := r.Array().Info()
	geom, err := planner.NewGeometry(in.Shape, in.ChunkShape, in.Labels)
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Pin(r.Array().Source(), r.Table()); err != nil {
		t.Fatal(err)
	}
	c := scan.NewCellScan(r, sess)
	var plan planner.Plan
	for range 2 { // a second Filter call reads the same rows again
		ids, vals = ids[:0], vals[:0]
		c.Begin()
		if err := plan.Reset(geom, cons); err != nil {
			t.Fatal(err)
		}
		if err := c.Start(&plan, offset, limit, nil); err != nil {
			t.Fatal(err)
		}
		for !c.Eof() {
			b, i, ok := c.Value()
			if !ok {
				t.Fatal(c.Err())
			}
			ids, vals = append(ids, c.Rowid()), append(vals, f64(b, i))
			if err := c.Next(); err != nil {
				t.Fatal(err)
			}
		}
	}
	c.Close()
	st = c.Stats
	return ids, vals, st
}

// TestCellScan walks a 2-d array of in-place and decoded chunks, with
// and without read-ahead and the cache, with an offset and a limit: each
// element's value is its rowid, and every selected one comes once.
func TestCellScan(t *testing.T) {
	for _, tc := range []struct {
		name      string
		readAhead int
		cache     int64
	}{{"on demand", -1, 0}, {"automatic", 0, 0}, {"read-ahead", 3, 0}, {"read-ahead and cache", 2, 1 << 20}} {
		t.Run(tc.name, func(t *testing.T) {
			src := openFake(t, fakeHeader{Shape: []int64{10, 7}, Chunk: []int64{3, 4}})
			src.SetCacheBudget(tc.cache)
			sess := scan.NewSession(nil)
			sess.ReadAhead = tc.readAhead
			r := scan.NewReader(src.Arrays()[0], "main.a", 0)
			cons := []planner.Constraint{{Target: planner.Dim(1), Op: planner.OpGE, Value: int64(2)}}
			ids, vals, st := cellRows(t, r, sess, cons, 0, -1)
			if len(ids) != 10*5 {
				t.Fatalf("%d rows, want 50", len(ids))
			}
			seen := map[int64]bool{}
			for k, id := range ids {
				if vals[k] != float64(id) || id%7 < 2 || seen[id] {
					t.Fatalf("row %d: rowid %d value %v", k, id, vals[k])
				}
				seen[id] = true
			}
			if st.Filters != 2 || st.Rows != 100 || st.ChunksDecoded != 16 || st.ChunksTotal != 8 {
				t.Errorf("stats %+v", st)
			}
			if tc.cache > 0 && st.CacheHits != 4 {
				t.Errorf("%d cache hits, want the 4 decoded chunks of the second Filter", st.CacheHits)
			}
			ids, _, _ = cellRows(t, r, sess, nil, 5, 3)
			// Rows come in chunk order: the first chunk holds rowids 0-3, 7-10, 14-17.
			if len(ids) != 3 || ids[0] != 8 || ids[2] != 10 {
				t.Errorf("OFFSET 5 LIMIT 3: rowids %v, want 8 9 10", ids)
			}
		})
	}
}

// TestCellScan_missingChunk: a plan over a chunk the file does not store
// fails naming it, with or without read-ahead.
func TestCellScan_missingChunk(t *testing.T) {
	for _, ra := range []int{-1, 0, 2} {
		src := openFake(t, fakeHeader{Shape: []int64{12}, Chunk: []int64{3}, Missing: []int64{2}})
		sess := scan.NewSession(nil)
		sess.ReadAhead = ra
		r := scan.NewReader(src.Arrays()[0], "main.a", 0)
		in := r.Array().Info()
		geom, _ := planner.NewGeometry(in.Shape, in.ChunkShape, nil)
		sess.Pin(src, "main.a")
		c := scan.NewCellScan(r, sess)
		var plan planner.Plan
		c.Begin()
		plan.Reset(geom, nil)
		err := c.Start(&plan, 0, -1, nil)
		for err == nil && !c.Eof() && c.Err() == nil {
			err = c.Next()
		}
		c.Close()
		if !errors.Is(c.Err(), array.ErrMissingChunk) || !errors.Is(sess.TakeError(), array.ErrMissingChunk) {
			t.Errorf("read-ahead %d: %v", ra, c.Err())
		}
	}
}

// TestFold folds a 2-d array grouped by its first axis and ungrouped,
// over a selection with two runs on the second axis, and checks sums
// against the elements (element = its rowid); whole chunks leave their
// statistics for cells scans to skip by.
func TestFold(t *testing.T) {
	src := openFake(t, fakeHeader{Shape: []int64{9, 8}, Chunk: []int64{3, 3}})
	a := src.Arrays()[0]
	sel := make([]scan.AxisSel, 2)
	sel[0].Add(0, 9)
	sel[1].Add(0, 3)
	sel[1].Add(5, 8)
	for _, keep := range [][]bool{{true, false}, {false, false}} {
		stride, groups := fold.Strides([]int64{sel[0].N, sel[1].N}, keep)
		spans, n := scan.ChunkSpans(sel, a.Info().ChunkShape)
		spec := scan.FoldSpec{Reader: scan.NewReader(a, "main.a_agg", 0), Sel: sel, Stride: stride, Groups: groups,
			Spans: spans, Chunks: n, Free: 1 << 20}
		var st scan.ScanStats
		out, err := scan.Fold(&spec, &st)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, groups)
		for y := int64(0); y < 9; y++ {
			for x := int64(0); x < 8; x++ {
				if x < 3 || x >= 5 {
					want[y*stride[0]] += float64(y*8 + x)
				}
			}
		}
		for g := range out {
			if s, _ := out[g].Sum(); s != want[g] {
				t.Errorf("keep %v group %d: sum %v, want %v", keep, g, s, want[g])
			}
		}
		if st.Elements != 9*6 || st.ChunksDecoded != 9 || n != 9 {
			t.Errorf("keep %v: stats %+v over %d chunks", keep, st, n)
		}
	}
	if s, ok := a.Stats().Get(0); !ok || s.Count != 9 || s.Min.F != 0 || s.Max.F != 18 || !s.Max.Real {
		t.Errorf("chunk 0 statistics %+v, %v", s, ok)
	}
	if _, ok := a.Stats().Get(1); ok {
		t.Error("statistics of a chunk folded in part")
	}
}

// TestFirstMissing: a selection over a chunk the file does not store is
// refused before anything is folded.
func TestFirstMissing(t *testing.T) {
	src := openFake(t, fakeHeader{Shape: []int64{12}, Chunk: []int64{3}, Missing: []int64{3}})
	sel := make([]scan.AxisSel, 1)
	sel[0].Add(1, 12)
	spans, n := scan.ChunkSpans(sel, []int64{3})
	r := scan.NewReader(src.Arrays()[0], "main.a_agg", 0)
	if err := r.FirstMissing(spans); n != 4 || !errors.Is(err, array.ErrMissingChunk) || err.Error() != `tet: main.a_agg: dataset "a" chunk [3]: chunk not present in index` {
		t.Errorf("%d chunks, %v", n, err)
	}
}
