package tetsql_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/tetcore"
)

// TestReadAhead_sameRowsAndStats runs queries of every shape (full scans,
// slabs, rowid ranges, IN lists and joins that call Filter many times,
// LIMIT/OFFSET, scans abandoned early) with and without read-ahead: rows
// and scan statistics must be identical, since a scan counts only the
// chunks it consumed.
func TestReadAhead_sameRowsAndStats(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ra.tet")
	writeGrids(t, path,
		grid{name: "z", shape: [2]int64{150, 100}, chunks: [2]int64{32, 24}, codec: tetcore.CodecZstd, labels: true},
		grid{name: "r", shape: [2]int64{150, 100}, chunks: [2]int64{50, 50}, codec: tetcore.CodecRaw})
	queries := []struct {
		q     string
		first int // read only this many rows, then close (0 = all)
	}{
		{q: "SELECT count(*), sum(value) FROM z"},
		{q: "SELECT * FROM z WHERE x BETWEEN 10 AND 120 AND y > 30"},
		{q: "SELECT rowid, value FROM z WHERE rowid BETWEEN 1000 AND 9000"},
		{q: "SELECT x, y, value FROM z WHERE x IN (1, 70, 149)"},
		{q: "SELECT * FROM z LIMIT 10 OFFSET 5000"},
		{q: "SELECT count(*), sum(a.value - b.value) FROM r b JOIN z a ON a.x = b.x AND a.y = b.y WHERE b.x < 40"},
		{q: "SELECT x_label, max(value) FROM z GROUP BY x_label ORDER BY 1 DESC LIMIT 5"},
		{q: "SELECT value FROM z WHERE value > 100", first: 3},
		{q: "SELECT EXISTS(SELECT 1 FROM z WHERE value = 5000)"},
	}
	run := func(dsn string) (out []string) {
		db, err := sql.Open("tetsql", path+dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		ctx := context.Background()
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		for _, q := range queries {
			rows := queryRows(t, conn, q.q, q.first)
			scans, err := tetsql.Scans(ctx, conn)
			if err != nil || len(scans) == 0 {
				t.Fatalf("%s: scans %v %v", q.q, scans, err)
			}
			for i := range scans {
				scans[i].Elapsed = 0
			}
			out = append(out, fmt.Sprintf("%s\n%s\n%+v", q.q, strings.Join(rows, "\n"), scans))
		}
		return out
	}
	want := run("")
	for _, opts := range []string{"?read_ahead=1", "?read_ahead=3&decode_parallelism=1", "?read_ahead=8&decode_parallelism=2"} {
		got := run(opts)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s:\ngot  %.600s\nwant %.600s", opts, got[i], want[i])
			}
		}
	}
}

// queryRows renders the rows of q ("|"-joined columns), reading only the
// first n rows when n > 0.
func queryRows(t testing.TB, conn *sql.Conn, q string, n int) []string {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out []string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
		if n > 0 && len(out) == n {
			break
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// TestReadAhead_workersAndMemory checks that read-ahead really decodes on
// other goroutines (decode_parallelism of them while a scan is open, none
// after it closes) and that a scan holds a bounded number of decoded
// chunks: live heap mid-scan stays far below the dataset's decoded size.
// The IN list makes 8 Filter calls of 8 chunks each, emitting one column
// of every chunk: every chunk is decoded, few rows cross database/sql.
// Not parallel: it counts goroutines and live heap.
func TestReadAhead_workersAndMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "many.tet")
	// 64 zstd chunks of 256 KiB: 16 MiB decoded.
	writeGrids(t, path, grid{name: "m", shape: [2]int64{2048, 2048}, chunks: [2]int64{256, 256}, codec: tetcore.CodecZstd})
	const depth, par, chunk = 4, 2, 256 * 256 * 4
	const query = "SELECT value FROM m WHERE y IN (0, 256, 512, 768, 1024, 1280, 1536, 1792)"
	const nrows = 2048 * 8
	openRows := func(dsn string) (*sql.DB, *sql.Rows) {
		db, err := sql.Open("tetsql", path+dsn)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := db.Query(query)
		if err != nil {
			t.Fatal(err)
		}
		return db, rows
	}
	var before, mid runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// Read-ahead is on by default, so workers of another test's scan may
	// still be ending: count this scan's on top of them.
	others := readAheadWorkers()
	// No chunk cache: it would keep every decoded chunk (that is its job);
	// this measures what read-ahead holds.
	db, rows := openRows(fmt.Sprintf("?read_ahead=%d&decode_parallelism=%d&cache_budget=0", depth, par))
	n := 0
	var sum float64
	for rows.Next() {
		var v float64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		sum += v
		if n++; n == nrows/2 {
			// Workers start as jobs are queued, so how many exist at
			// this instant depends on scheduling: at least one, never
			// more than decode_parallelism.
			if w := readAheadWorkers(); w < 1 || w > others+par {
				t.Errorf("%d read-ahead workers mid-scan (%d before it), want 1 to %d more", w, others, par)
			}
			runtime.GC()
			runtime.ReadMemStats(&mid)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	db.Close()
	// Σ over x and the 8 columns y of 2048x+y.
	if want := float64(8*2048*2047/2*2048 + 2048*(0+256+512+768+1024+1280+1536+1792)); sum != want || n != nrows {
		t.Errorf("n=%d sum=%v, want %d rows summing to %v", n, sum, nrows, want)
	}
	grew := int64(mid.HeapAlloc) - int64(before.HeapAlloc)
	limit := int64((depth+3)*chunk + 2<<20)
	t.Logf("live heap mid-scan grew %d KiB (limit %d KiB; whole dataset %d KiB)", grew>>10, limit>>10, 2048*2048*4>>10)
	if grew > limit {
		t.Errorf("live heap grew by %d bytes mid-scan, want at most %d", grew, limit)
	}
	deadline := time.Now().Add(2 * time.Second)
	for readAheadWorkers() > others && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if w := readAheadWorkers(); w > others {
		t.Errorf("%d read-ahead workers left after close (%d before the scan)", w, others)
	}
}

// readAheadWorkers counts the goroutines running vtab's read-ahead worker.
func readAheadWorkers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "scan.raWorker(")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// BenchmarkReadAhead sums a zstd dataset of 64 chunks without read-ahead,
// with the default (automatic) and with 4 chunks ahead.
func BenchmarkReadAhead(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.tet")
	writeGrids(b, path, grid{name: "m", shape: [2]int64{2048, 2048}, chunks: [2]int64{256, 256}, codec: tetcore.CodecZstd})
	for _, opts := range []string{"?read_ahead=0", "", "?read_ahead=4"} {
		b.Run("opts="+opts, func(b *testing.B) {
			db, err := sql.Open("tetsql", path+opts)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			b.SetBytes(2048 * 2048 * 4)
			for b.Loop() {
				var s float64
				if err := db.QueryRow("SELECT sum(value) FROM m").Scan(&s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
