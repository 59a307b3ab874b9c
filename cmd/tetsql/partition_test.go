package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestRun_partitionBy: --partition-by writes a hive-partitioned dataset
// into -o DIR holding every row once; misuse is a usage error.
func TestRun_partitionBy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "ds")
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	q := "SELECT station, value, station % 4 AS q FROM location"
	code, stdout, errs := runCLI(t, "", "--partition-by", "q", "-o", out, demo, q)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	total := 0
	stations := map[int64]int{} // rows of each station in the dataset
	for k := 0; k < 4; k++ {
		path := filepath.Join(out, fmt.Sprintf("q=%d", k), "part-0.parquet")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, fl := range f.Schema().Fields() {
			names = append(names, fl.Name())
		}
		if !slices.Equal(names, []string{"station", "value"}) {
			t.Errorf("%s: columns %v, want [station value]", path, names)
		}
		r := parquet.NewReader(f)
		rows := make([]parquet.Row, f.NumRows())
		n, _ := r.ReadRows(rows)
		r.Close()
		for _, row := range rows[:n] {
			s := row[0].Int64()
			if s%4 != int64(k) {
				t.Errorf("%s: station %d misplaced", path, s)
			}
			stations[s]++
		}
		total += n
	}
	if total != 100 {
		t.Errorf("%d rows in the dataset, want 100", total)
	}
	// Rows per station as the query counts them.
	_, counts, _ := runCLI(t, "", "--csv", "--no-header", demo, "SELECT station, count(*) FROM location GROUP BY station")
	lines := strings.Fields(counts)
	if len(lines) != len(stations) {
		t.Errorf("%d stations in the dataset, the query has %d", len(stations), len(lines))
	}
	for _, l := range lines {
		var s int64
		var c int
		if _, err := fmt.Sscanf(l, "%d,%d", &s, &c); err != nil || stations[s] != c {
			t.Errorf("station %d: %d rows in the dataset, the query has %d (%v)", s, stations[s], c, err)
		}
	}
	if ents, _ := os.ReadDir(out); len(ents) != 4 {
		t.Errorf("%d partition directories, want 4", len(ents))
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--partition-by", "q", demo, q}, 2, "give it with -o DIR"},
		{[]string{"--partition-by", "", "-o", filepath.Join(dir, "a"), demo, q}, 2, "--partition-by: no column names"},
		{[]string{"--partition-by=", "-o", filepath.Join(dir, "a"), demo, q}, 2, "--partition-by: no column names"},
		{[]string{"--partition-by", "q,", "-o", filepath.Join(dir, "a"), demo, q}, 2, "--partition-by: an empty column name"},
		{[]string{"--partition-by", "q", "--mode", "csv", "-o", filepath.Join(dir, "a"), demo, q}, 2, "writes Parquet, not --mode csv"},
		{[]string{"--partition-by", "q", "-o", filepath.Join(dir, "a.csv"), demo, q}, 2, "into a directory"},
		{[]string{"--partition-by", "q", "-o", filepath.Join(dir, "a"), demo}, 2, "needs the query"},
		{[]string{"--partition-by", "q", "-o", filepath.Join(dir, "a"), demo, q + "; SELECT 1"}, 2, "one statement (got 2)"},
		{[]string{"--partition-by", "nope", "-o", filepath.Join(dir, "a"), demo, q}, 1, `partition column "nope" is not in the result`},
		{[]string{"--partition-by", "q", "-o", out, demo, q}, 1, "exists and is not empty"},
	} {
		code, _, errs := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); !os.IsNotExist(err) {
		t.Errorf("a refused export left %s behind", filepath.Join(dir, "a"))
	}
}
