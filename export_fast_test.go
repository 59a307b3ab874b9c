package tetsql_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
)

// exportQuery exports q through QueryExport on one connection of db and
// reports whether the rows came straight from a cells scan.
func exportQuery(t *testing.T, db *sql.DB, q string, opts tetsql.ParquetOptions) ([]byte, int64, bool, error) {
	t.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	e, err := tetsql.NewExport(ctx, conn, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var buf bytes.Buffer
	n, err := e.WriteParquet(ctx, &buf, opts)
	return buf.Bytes(), n, e.TookScan(), err
}

// TestExportFastDifferential: every query's export holds exactly the
// rows SQLite returns (read back value by value), whether the fast path
// took it or not, and the fast path takes exactly the plain projections.
func TestExportFastDifferential(t *testing.T) {
	demo := openDemo(t)
	ints, err := sql.Open("tetsql", writeIntFile(t, intCases))
	if err != nil {
		t.Fatal(err)
	}
	defer ints.Close()
	tests := []struct {
		db   *sql.DB
		q    string
		fast bool
	}{
		{demo, "SELECT * FROM temperature", true},
		{demo, "SELECT value, time_label, station FROM temperature", true},
		{demo, "SELECT value AS v, value AS w FROM temperature WHERE time BETWEEN 3 AND 40", true},
		{demo, "SELECT * FROM temperature WHERE station_label = 'Nuuk'", false},
		{demo, "SELECT * FROM temperature WHERE value > 10", true},
		{demo, "SELECT * FROM temperature WHERE value IS NULL", false},
		{demo, "SELECT * FROM temperature WHERE time IN (3, 5, 400) AND station >= 48", false},
		{demo, "SELECT * FROM pressure WHERE lat < 3 AND lon_label >= 100", true},
		{demo, "SELECT * FROM elevation", true},
		{demo, "SELECT * FROM location", true},
		{demo, "  select * from location ;  ", true},
		{ints, "SELECT * FROM u64", true},
		{ints, "SELECT value, i FROM i16", true},
		{ints, "SELECT * FROM u8 WHERE value > 1", true},
		// SQLite has work to do on each row: the ordinary path.
		{demo, "SELECT * FROM temperature WHERE value * 2 > 10", false},
		{demo, "SELECT * FROM temperature WHERE station_label LIKE 'N%'", false},
		{demo, "SELECT * FROM temperature ORDER BY value DESC LIMIT 7", false},
		{demo, "SELECT * FROM temperature LIMIT 100 OFFSET 3", false},
		{demo, "SELECT DISTINCT station_label FROM temperature", false},
		{demo, "SELECT value + 1 FROM temperature", false},
		{demo, "SELECT time, count(*) FROM temperature GROUP BY time", false},
		{demo, "SELECT rowid, value FROM temperature", false},
		{demo, "SELECT t.value FROM temperature t JOIN elevation e ON e.station = t.station", false},
		{demo, "SELECT * FROM temperature WHERE station IN (SELECT station FROM elevation WHERE value > 100)", false},
		{demo, "SELECT * FROM temperature WHERE station_label = 'Nuuk' COLLATE NOCASE", false},
		{demo, "SELECT * FROM temperature UNION ALL SELECT * FROM temperature", false},
		{demo, "SELECT name FROM tet_datasets", false},
		{demo, "WITH x AS (SELECT * FROM elevation) SELECT * FROM x", false},
	}
	for _, tc := range tests {
		t.Run(tc.q, func(t *testing.T) {
			want := pqQueryAll(t, tc.db, tc.q)
			b, n, took, err := exportQuery(t, tc.db, tc.q, tetsql.ParquetOptions{RowGroupRows: 5000})
			if err != nil {
				t.Fatal(err)
			}
			if took != tc.fast {
				t.Errorf("fast path taken: %v, want %v", took, tc.fast)
			}
			if n != int64(len(want)) {
				t.Fatalf("%d rows, SQLite returns %d", n, len(want))
			}
			slow, _, err := exportParquet(t, tc.db, tc.q, tetsql.ParquetOptions{RowGroupRows: 5000})
			if tc.q == "SELECT * FROM u64" { // values above 2^63-1: rounded REALs, refused by the ordinary path
				if !errors.Is(err, tetsql.ErrParquetType) {
					t.Errorf("ordinary path: %v, want ErrParquetType", err)
				}
				slow = b
			} else if err != nil {
				t.Fatal(err)
			}
			fs, _ := readParquet(t, slow)
			f, rows := readParquet(t, b)
			if f.Schema().String() != fs.Schema().String() {
				t.Errorf("schema\n%v\nwant (ordinary path)\n%v", f.Schema(), fs.Schema())
			}
			if len(f.RowGroups()) != len(fs.RowGroups()) {
				t.Errorf("%d row groups, ordinary path %d", len(f.RowGroups()), len(fs.RowGroups()))
			}
			for i, r := range rows {
				for j, v := range r {
					w := want[i][j]
					if u, ok := w.(float64); ok && u >= 1<<63 { // a u64 above 2^63-1: its bits
						if float64(uint64(v.Int64())) != u { // exact in the file, rounded in SQL
							t.Fatalf("row %d col %d: %v, want %v", i, j, v, w)
						}
						continue
					}
					if v.Kind().String() == "INT32" {
						if w == nil || v.IsNull() {
							if !(w == nil && v.IsNull()) {
								t.Fatalf("row %d col %d: %v, want %v", i, j, v, w)
							}
							continue
						}
						got := int64(v.Int32())
						if wi := w.(int64); got != wi && int64(uint32(v.Int32())) != wi {
							t.Fatalf("row %d col %d: %v, want %v", i, j, v, w)
						}
						continue
					}
					if !sameValue(v, w) && !(w != nil && isNaN(w) && v.IsNull()) {
						t.Fatalf("row %d col %d: %v, want %v", i, j, v, w)
					}
				}
			}
		})
	}
}

func isNaN(v any) bool {
	f, ok := v.(float64)
	return ok && math.IsNaN(f)
}

// TestExportFastLimits: the connection's limits hold on the fast path
// as on the ordinary one: max_rows, a canceled context, safe mode.
func TestExportFastLimits(t *testing.T) {
	ctx := context.Background()
	run := func(t *testing.T, dsn string, ctx context.Context, q string) (int64, bool, error) {
		t.Helper()
		db, err := sql.Open("tetsql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		e, err := tetsql.NewExport(context.Background(), conn, q)
		if err != nil {
			return 0, false, err
		}
		var buf bytes.Buffer
		n, err := e.WriteParquet(ctx, &buf, tetsql.ParquetOptions{})
		return n, e.TookScan(), err
	}
	t.Run("max_rows", func(t *testing.T) {
		_, took, err := run(t, "testdata/demo.tet?max_rows=1000", ctx, "SELECT * FROM temperature")
		if !errors.Is(err, tetsql.ErrMaxRows) || !took {
			t.Errorf("err %v (fast path %v), want ErrMaxRows on the fast path", err, took)
		}
		n, took, err := run(t, "testdata/demo.tet?max_rows=18300", ctx, "SELECT * FROM temperature")
		if err != nil || n != 18300 || !took {
			t.Errorf("%d rows, err %v, fast %v; want all 18300", n, err, took)
		}
	})
	t.Run("canceled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, _, err := run(t, bigFile(t), cctx, "SELECT * FROM big")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
	})
	t.Run("safe", func(t *testing.T) {
		n, took, err := run(t, "testdata/demo.tet?safe=1", ctx, "SELECT * FROM elevation")
		if err != nil || n != 50 || !took {
			t.Errorf("%d rows, err %v, fast %v", n, err, took)
		}
		if _, _, err := run(t, "testdata/demo.tet?safe=1", ctx, "CREATE TABLE x(a)"); err == nil {
			t.Error("CREATE in safe mode: no error")
		}
	})
}

// TestExportProgress: the Progress callback adds up to the rows written,
// on the fast path, the ordinary one and into partitions.
func TestExportProgress(t *testing.T) {
	db := openDemo(t)
	for _, q := range []string{"SELECT * FROM temperature", "SELECT * FROM temperature WHERE value * 2 > 10"} {
		var sum int64
		calls := 0
		_, n, took, err := exportQuery(t, db, q, tetsql.ParquetOptions{Progress: func(r int64) { sum += r; calls++ }})
		if err != nil || sum != n || n == 0 || calls == 0 {
			t.Errorf("%s (fast %v): progress %d in %d calls, %d rows written, err %v", q, took, sum, calls, n, err)
		}
	}
	rows, err := db.Query("SELECT time % 3 AS g, value FROM temperature")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var sum int64
	_, n, err := tetsql.WriteParquetPartitioned(t.TempDir()+"/out", rows, []string{"g"},
		tetsql.ParquetOptions{Progress: func(r int64) { sum += r }})
	if err != nil || sum != n || n == 0 {
		t.Errorf("partitioned: progress %d, %d rows written, err %v", sum, n, err)
	}
}

// TestExportFastRandom: random projections and WHERE clauses over the
// demo file; the export equals SQLite's rows in order, whichever path.
func TestExportFastRandom(t *testing.T) {
	db := openDemo(t)
	rng := rand.New(rand.NewPCG(19, 2026))
	tables := []struct {
		name  string
		cols  []string
		terms []string
	}{
		{"temperature", []string{"time", "station", "time_label", "station_label", "value"}, []string{
			"time < %d", "time >= %d", "time BETWEEN %d AND %d", "station = %d", "station > %d", "station IN (%d, %d)",
			"value > %d", "value <= %d", "value IS NOT NULL", "value BETWEEN %d AND %d", "station_label = 'Nuuk'",
			"time_label >= '2024-03-01'", "station_label < 'M'", "value = %d", "rowid < %d", "value > '5'",
		}},
		{"pressure", []string{"time", "lat", "lon", "lat_label", "lon_label", "value"}, []string{
			"lat = %d", "lon < %d", "lat_label > %d", "lon_label BETWEEN %d AND %d", "time < %d", "value > 1000",
			"value < %d", "lat IN (%d, %d)",
		}},
	}
	fast := 0
	for i := range 80 {
		tb := tables[rng.IntN(len(tables))]
		var sel []string
		for range 1 + rng.IntN(4) {
			sel = append(sel, tb.cols[rng.IntN(len(tb.cols))])
		}
		q := "SELECT " + strings.Join(sel, ", ") + " FROM " + tb.name
		if k := rng.IntN(4); k > 0 {
			var where []string
			for range k {
				term := tb.terms[rng.IntN(len(tb.terms))]
				args := make([]any, strings.Count(term, "%d"))
				for a := range args {
					args[a] = rng.IntN(60) - 10
				}
				where = append(where, fmt.Sprintf(term, args...))
			}
			q += " WHERE " + strings.Join(where, " AND ")
		}
		want := pqQueryAll(t, db, q)
		b, n, took, err := exportQuery(t, db, q, tetsql.ParquetOptions{RowGroupRows: 3000})
		if err != nil {
			t.Fatalf("%d %s: %v", i, q, err)
		}
		if took {
			fast++
		}
		if n != int64(len(want)) {
			t.Fatalf("%s (fast %v): %d rows, SQLite %d", q, took, n, len(want))
		}
		_, rows := readParquet(t, b)
		for r, row := range rows {
			for c, v := range row {
				if w := want[r][c]; !sameValue(v, w) && !(w != nil && isNaN(w) && v.IsNull()) {
					t.Fatalf("%s (fast %v): row %d col %d: %v, want %v", q, took, r, c, v, w)
				}
			}
		}
	}
	if fast < 20 {
		t.Errorf("only %d of 80 queries took the fast path", fast)
	}
	t.Logf("%d of 80 queries took the fast path", fast)
}

// TestExportFastGlob: a many-file table's plain projection is exported
// straight from its files' scans, file and hive columns included, with
// the rows SQLite returns; terms on file columns prune as ever.
func TestExportFastGlob(t *testing.T) {
	db, err := sql.Open("tetsql", "testdata/era5_monthly/**/*.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tc := range []struct {
		q    string
		fast bool
	}{
		{"SELECT * FROM t2m", true},
		{"SELECT month, lat_label, value FROM t2m WHERE lat < 3", true},
		{"SELECT file, value FROM t2m WHERE month >= '11'", false}, // file terms are re-checked by SQLite
		{"SELECT value, year FROM t2m WHERE value > 0.5", true},
		{"SELECT value FROM t2m WHERE value * 2 > 1", false},
	} {
		t.Run(tc.q, func(t *testing.T) {
			want := pqQueryAll(t, db, tc.q)
			b, n, took, err := exportQuery(t, db, tc.q, tetsql.ParquetOptions{RowGroupRows: 10000})
			if err != nil {
				t.Fatal(err)
			}
			if took != tc.fast {
				t.Errorf("fast path %v, want %v", took, tc.fast)
			}
			if n != int64(len(want)) || n == 0 {
				t.Fatalf("%d rows, SQLite %d", n, len(want))
			}
			_, rows := readParquet(t, b)
			for r, row := range rows {
				for c, v := range row {
					if w := want[r][c]; !sameValue(v, w) && !(w != nil && isNaN(w) && v.IsNull()) {
						t.Fatalf("row %d col %d: %v, want %v", r, c, v, w)
					}
				}
			}
		})
	}
}
