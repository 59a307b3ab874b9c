package vtab_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// planOf returns the detail column of EXPLAIN QUERY PLAN, one entry per loop.
func planOf(t *testing.T, q string, run func(string) []string) []string {
	t.Helper()
	var out []string
	for _, r := range run("EXPLAIN QUERY PLAN " + q) {
		parts := strings.SplitN(r, "|", 4)
		out = append(out, parts[len(parts)-1])
	}
	return out
}

// TestJoinPlans: the row estimates of cells and _agg tables give joins
// plans that put the small side outside and push the join key down.
func TestJoinPlans(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "j.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "t", DType: tetcore.F32, Shape: []int64{366, 500},
		ChunkShape: []int64{30, 100}, DimNames: []string{"time", "station"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteDataset(make([]byte, 366*500*4)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	db, _ := openDB(t, map[string]string{"x": path})
	run := func(q string) []string { return rowsOf(t, db, q) }
	run("CREATE TABLE days(k INTEGER)")
	run("INSERT INTO days VALUES (3), (40), (100)")
	cases := []struct {
		q    string
		want []string // substrings of the loops, outermost first
	}{
		// One fold outside (366 rows), then one time slice of t per row.
		{"SELECT a.time, a.mean, t.value FROM x.t_agg('time') a JOIN x.t ON t.time = a.time",
			[]string{"SCAN a VIRTUAL TABLE INDEX 1:b", "SCAN x.t VIRTUAL TABLE INDEX 1:d0="}},
		{"SELECT a.time, a.mean, t.value FROM x.t JOIN x.t_agg('time') a ON t.time = a.time",
			[]string{"SCAN a VIRTUAL TABLE INDEX 1:b", "SCAN x.t VIRTUAL TABLE INDEX 1:d0="}},
		{"SELECT a.station, t.value FROM x.t JOIN x.t_agg('station') a ON t.station = a.station AND t.time = 5",
			[]string{"SCAN a VIRTUAL TABLE INDEX 1:b", "SCAN x.t VIRTUAL TABLE INDEX 1:d"}},
		// Literal bounds are planned as Filter plans them: b selects one
		// day (500 rows), a the whole year, so b goes outside (the
		// heuristic 1/16 for BETWEEN against 1/4 for < said the opposite).
		{"SELECT count(*) FROM x.t a JOIN x.t b ON a.station = b.station AND a.time = b.time WHERE a.time BETWEEN 0 AND 365 AND b.time < 1",
			[]string{"SCAN b VIRTUAL TABLE INDEX 1:d0<", "SCAN a VIRTUAL TABLE INDEX 1:"}},
		// 183000 groups: SQLite indexes the small native table rather
		// than scanning it once per group (with a 1-row estimate it did).
		// (Not SELECT *: that uses median etc., flagged in idxNum.)
		{"SELECT days.k, a.station, a.count, a.mean FROM days JOIN x.t_agg('time,station') a ON a.time = days.k",
			[]string{"SCAN a VIRTUAL TABLE INDEX 1:b", "", "SEARCH days USING AUTOMATIC"}},
		// Coarsened axes count their blocks: 91500 groups plan as above,
		// one group (each axis one block) scans days once.
		{"SELECT days.k, a.station, a.count, a.mean FROM days JOIN x.t_agg('time/2,station') a ON a.time = days.k",
			[]string{"SCAN a VIRTUAL TABLE INDEX 1:b", "", "SEARCH days USING AUTOMATIC"}},
		{"SELECT days.k, a.station, a.count, a.mean FROM days JOIN x.t_agg('time/366,station/500') a ON a.time = days.k",
			[]string{"SCAN a VIRTUAL TABLE INDEX 1:b", "SCAN days"}},
	}
	for _, tc := range cases {
		got := planOf(t, tc.q, run)
		ok := len(got) == len(tc.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.Contains(got[i], tc.want[i])
		}
		if !ok {
			t.Errorf("%s:\n plan %q\n want %q", tc.q, got, tc.want)
		}
	}
}
