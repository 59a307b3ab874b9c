package tetsql_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"testing"

	tetsql "github.com/tetsql/tetsql"
)

// liveFor runs q to the end and returns the live counters it added and
// the scans it recorded.
func liveFor(t *testing.T, conn *sql.Conn, q string) (tetsql.LiveCounts, []tetsql.ScanStats) {
	t.Helper()
	ctx := context.Background()
	act, err := tetsql.Progress(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	tetsql.Scans(ctx, conn) // forget earlier scans
	before := act.Snapshot()
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	rows.Close()
	scans, err := tetsql.Scans(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	return act.Snapshot().Sub(before), scans
}

// TestProgress_matchesScans: after a statement, the live counters it
// added agree with the statistics its scans recorded: cells scans (rows
// emitted), folds and routed aggregates (elements folded), top-k scans
// (the elements of the chunks read) and many-file scans (files).
func TestProgress_matchesScans(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "g.tet")
	// 40 chunks of 10×50 = 500 elements.
	writeGrids(t, path, grid{name: "g", shape: [2]int64{100, 200}, chunks: [2]int64{10, 50}})
	_, cells := openConn(t, path+"?agg_rewrite=false")
	_, routed := openConn(t, path)
	_, many := openConn(t, "testdata/many/**/*.tet")
	for _, tc := range []struct {
		name, q      string
		conn         *sql.Conn
		planned      int64 // chunks planned; -1 = the scans' ChunksTotal
		rowsPerChunk int64 // top-k: rows = chunks read × this
	}{
		{"cells full scan", "SELECT count(*) FROM g", cells, -1, 0},
		{"cells sub-box", "SELECT sum(value) FROM g WHERE x < 20 AND y < 60", cells, 4, 0},
		{"cells LIMIT", "SELECT value FROM g LIMIT 3", cells, 40, 0},
		{"_agg", "SELECT count, mean FROM g_agg WHERE x >= 50", cells, 20, 0},
		{"_agg grouped", "SELECT x, count FROM g_agg('x')", cells, 40, 0},
		{"routed aggregate", "SELECT count(*), avg(value) FROM g", routed, 40, 0},
		{"median", "SELECT median FROM g_agg", cells, 80, 0}, // a fold, then a pick
		{"top-k", "SELECT value FROM g ORDER BY value DESC LIMIT 3", cells, 40, 500},
		{"many-file cells", "SELECT count(value) FROM t2m", many, -1, 0},
		{"many-file agg", "SELECT count FROM t2m_agg", many, -1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			live, scans := liveFor(t, tc.conn, tc.q)
			var sum tetsql.ScanStats
			for _, s := range scans {
				sum.ChunksDecoded += s.ChunksDecoded
				sum.ChunksTotal += s.ChunksTotal
				sum.Rows += s.Rows
				sum.Elements += s.Elements
				sum.FilesOpened += s.FilesOpened
				sum.FilesTotal += s.FilesTotal
			}
			if len(scans) == 0 || sum.ChunksDecoded == 0 {
				t.Fatalf("no scan recorded: %+v", scans)
			}
			if live.Chunks != sum.ChunksDecoded {
				t.Errorf("live chunks %d, scans decoded %d", live.Chunks, sum.ChunksDecoded)
			}
			want := tc.planned
			if want < 0 {
				want = sum.ChunksTotal
			}
			if live.ChunksPlanned != want {
				t.Errorf("live chunks planned %d, want %d", live.ChunksPlanned, want)
			}
			switch {
			case tc.rowsPerChunk > 0:
				// The elements gone through, and the rows emitted.
				if live.Rows != live.Chunks*tc.rowsPerChunk+sum.Rows {
					t.Errorf("live rows %d, want %d chunks × %d + %d rows", live.Rows, live.Chunks, tc.rowsPerChunk, sum.Rows)
				}
			case sum.Elements > 0:
				if live.Rows != sum.Elements && tc.name != "median" {
					t.Errorf("live rows %d, scans folded %d elements", live.Rows, sum.Elements)
				}
				if tc.name == "median" && live.Rows != 2*sum.Elements { // both passes
					t.Errorf("live rows %d, want twice the %d elements folded", live.Rows, sum.Elements)
				}
			default:
				if live.Rows != sum.Rows {
					t.Errorf("live rows %d, scans emitted %d", live.Rows, sum.Rows)
				}
			}
			if live.FilesOpened != sum.FilesOpened || live.FilesPlanned != sum.FilesTotal {
				t.Errorf("live files %d/%d, scans %d/%d", live.FilesOpened, live.FilesPlanned, sum.FilesOpened, sum.FilesTotal)
			}
		})
	}
}

// TestProgress_duringScan: the counters advance while a statement runs,
// read from another goroutine (under -race: without a data race), and
// never go back.
func TestProgress_duringScan(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "g.tet")
	writeGrids(t, path, grid{name: "g", shape: [2]int64{100, 200}, chunks: [2]int64{10, 50}})
	_, conn := openConn(t, path)
	ctx := context.Background()
	act, err := tetsql.Progress(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	before := act.Snapshot()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var backwards []tetsql.LiveCounts
	wg.Add(1)
	go func() { // polls as a progress line would
		defer wg.Done()
		prev := act.Snapshot()
		for {
			select {
			case <-stop:
				return
			default:
			}
			cur := act.Snapshot()
			if cur.Chunks < prev.Chunks || cur.Rows < prev.Rows || cur.ChunksPlanned < prev.ChunksPlanned {
				backwards = append(backwards, prev, cur)
			}
			prev = cur
		}
	}()
	rows, err := conn.QueryContext(ctx, "SELECT value FROM g")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var mid tetsql.LiveCounts
	for rows.Next() {
		if n++; n == 10_000 {
			// Read from another goroutine while the scan is half done.
			got := make(chan tetsql.LiveCounts)
			go func() { got <- act.Snapshot() }()
			mid = (<-got).Sub(before)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	close(stop)
	wg.Wait()
	end := act.Snapshot().Sub(before)
	if mid.ChunksPlanned != 40 || mid.Chunks <= 0 || mid.Chunks >= 40 || mid.Rows <= 0 || mid.Rows > 10_000 {
		t.Errorf("half way: %+v, want 40 planned, some but not all chunks and rows", mid)
	}
	if end.Chunks != 40 || end.Rows != 20_000 || end.ChunksPlanned != 40 {
		t.Errorf("at the end: %+v, want 40/40 chunks, 20000 rows", end)
	}
	if len(backwards) > 0 {
		t.Errorf("counters went back: %+v", backwards)
	}
}
