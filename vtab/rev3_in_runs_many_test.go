package vtab_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev3_manyInRunsValueTermNone: the same loss as
// TestRev3_inRunsValueTermNone through a tet_many table, whose files'
// cells cursors scan the IN list run by run.
func TestRev3_manyInRunsValueTermNone(t *testing.T) {
	dir := t.TempDir()
	for f := range 2 {
		sub := filepath.Join(dir, fmt.Sprintf("f=%d", f))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{6, 2}, ChunkShape: []int64{2, 2}, Codec: tetcore.CodecRaw,
			DimNames: []string{"s", "t"}, Labels: [][]string{{"a", "b", "c", "d", "e", "f"}, nil}}
		writeTet(t, filepath.Join(sub, "a.tet"), spec, func(k int) float32 { return float32(100*f + k) })
	}
	db, _ := openDB(t, nil)
	mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE main.m USING tet_many('%s/*/a.tet', 'v')", dir))
	mustExec(t, db, "CREATE TABLE nat AS SELECT f, s, t, s_label, value FROM m")
	for _, where := range []string{
		"s_label IN ('a', 'f') AND value > 'abc'",
		"s_label IN ('a', 'f') AND value > 'abc' AND f = '1'",
	} {
		got, err := tryRows(db, "SELECT count(*), sum(value) FROM m WHERE "+where)
		want := rowsOf(t, db, "SELECT count(*), sum(value) FROM nat WHERE "+where)
		if err != nil || !sameRows(got, want) {
			t.Errorf("%s: many %v (err %v), SQLite %v", where, got, err, want)
		}
	}
}

// TestRev3_inRunsStats: a Filter scanned run by run counts as one Filter
// and reads only the chunks of the listed labels; an IN list that selects
// nothing reads nothing, also beside a second IN list on another label
// column (the second list is then scanned run by run anyway: the first
// list's "nothing" holds for the first run only).
func TestRev3_inRunsStats(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{8, 6}, ChunkShape: []int64{2, 2}, Codec: tetcore.CodecRaw,
		DimNames: []string{"a", "b"}, Labels: [][]string{{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"}, {"q0", "q1", "q2", "q3", "q4", "q5"}}}
	writeTet(t, p, spec, func(k int) float32 { return float32(k) })
	db, sess := openDB(t, map[string]string{"one": p})
	for _, c := range []struct {
		where          string
		rows           string
		filters, reads int64
	}{
		{"a_label IN ('p0', 'p7')", "12", 1, 6},
		{"a_label IN ('p0', 'p7') AND b_label IN ('q0', 'q5')", "4", 1, 6}, // the second list: its hull,
		{"a_label IN ('nope', 'none') AND b_label IN ('q0', 'q5')", "0", 1, 0},
		{"b_label IN ('q0', 'q5') AND a_label IN ('nope', 'none')", "0", 1, 0},
	} {
		sess.TakeScans()
		got := rowsOf(t, db, "SELECT count(*) FROM one.v WHERE "+c.where)
		if !sameRows(got, []string{c.rows}) {
			t.Errorf("%s: %v, want %s", c.where, got, c.rows)
		}
		var filters, reads int64
		for _, sc := range sess.TakeScans() {
			filters += sc.Filters
			reads += sc.ChunksDecoded + sc.CacheHits
		}
		if filters != c.filters || reads != c.reads {
			t.Errorf("%s: %d filters, %d chunks read; want %d, %d", c.where, filters, reads, c.filters, c.reads)
		}
	}
}
