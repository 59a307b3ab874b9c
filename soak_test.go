package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// soakDuration is how long TestSoak runs: 3 s, or $TETSQL_SOAK (a Go
// duration such as 2m), or 500 ms with -short.
func soakDuration(t *testing.T) time.Duration {
	if s := os.Getenv("TETSQL_SOAK"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("TETSQL_SOAK=%q: %v", s, err)
		}
		return d
	}
	if testing.Short() {
		return 500 * time.Millisecond
	}
	return 3 * time.Second
}

// resources is what a database may leak.
type resources struct {
	heap       uint64 // live heap after GC
	fds        int    // open file descriptors (-1 where /proc is absent)
	goroutines int
	open       []string // vtab's open-file registry
	bound      int      // tables, cursors and connections the SQLite binding holds
}

func measure() resources {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fds := -1
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		fds = len(ents)
	}
	return resources{heap: ms.HeapAlloc, fds: fds, goroutines: runtime.NumGoroutine(), open: tetsql.OpenPaths(), bound: vtab.BoundObjects()}
}

// soakQuery is one kind of query with its checked answer.
type soakQuery struct {
	name string
	run  func(ctx context.Context, db *sql.DB, r *rand.Rand) error
}

// The soak file: "grid" 64×48 zstd in 16×16 chunks with labels, "raw" the
// same values raw in 64×12 chunks; value = 48x + y.
const soakX, soakY = 64, 48

func soakQueries() []soakQuery {
	scalar := func(ctx context.Context, db *sql.DB, want string, q string, args ...any) error {
		var got string
		if err := db.QueryRowContext(ctx, q, args...).Scan(&got); err != nil {
			return fmt.Errorf("%s %v: %w", q, args, err)
		}
		if got != want {
			return fmt.Errorf("%s %v: got %s, want %s", q, args, got, want)
		}
		return nil
	}
	wantErr := func(err error, substr string) error {
		if err == nil || !strings.Contains(err.Error(), substr) {
			return fmt.Errorf("got error %v, want one containing %q", err, substr)
		}
		return nil
	}
	return []soakQuery{
		{"point", func(ctx context.Context, db *sql.DB, r *rand.Rand) error {
			x, y := r.IntN(soakX), r.IntN(soakY)
			return scalar(ctx, db, fmt.Sprint(soakY*x+y), "SELECT CAST(value AS INTEGER) FROM g.grid WHERE x = ? AND y = ?", x, y)
		}},
		{"label point", func(ctx context.Context, db *sql.DB, r *rand.Rand) error {
			x, y := r.IntN(soakX), r.IntN(soakY)
			return scalar(ctx, db, fmt.Sprint(soakY*x+y), "SELECT CAST(value AS INTEGER) FROM g.grid WHERE x_label = ? AND y_label = ?",
				fmt.Sprintf("x%04d", x), fmt.Sprintf("y%04d", y))
		}},
		{"slab", func(ctx context.Context, db *sql.DB, r *rand.Rand) error {
			a := r.IntN(soakX)
			b := a + r.IntN(soakX-a)
			n := b - a + 1
			sum := soakY*soakY*(a+b)*n/2 + n*soakY*(soakY-1)/2
			return scalar(ctx, db, fmt.Sprintf("%d %d", n*soakY, sum),
				"SELECT count(*) || ' ' || CAST(sum(value) AS INTEGER) FROM g.grid WHERE x BETWEEN ? AND ?", a, b)
		}},
		{"full scan", func(ctx context.Context, db *sql.DB, r *rand.Rand) error {
			n := soakX * soakY
			if err := scalar(ctx, db, fmt.Sprint(n*(n-1)/2), "SELECT CAST(sum(value) AS INTEGER) FROM g.raw"); err != nil {
				return err
			}
			return scalar(ctx, db, "21", "SELECT CAST(sum(value) AS INTEGER) FROM s.temperature")
		}},
		{"join", func(ctx context.Context, db *sql.DB, r *rand.Rand) error {
			if err := scalar(ctx, db, "91", "SELECT CAST(sum(a.value * b.value) AS INTEGER) FROM s.temperature a JOIN u8.a b ON a.d0 = b.d0 AND a.d1 = b.d1"); err != nil {
				return err
			}
			x := r.IntN(soakX - 4)
			return scalar(ctx, db, "192", "SELECT count(*) FROM g.raw b JOIN g.grid a ON a.x = b.x AND a.y = b.y AND a.value = b.value WHERE b.x BETWEEN ? AND ?", x, x+3)
		}},
		{"metadata", func(ctx context.Context, db *sql.DB, r *rand.Rand) error {
			if err := scalar(ctx, db, "16", "SELECT count(*) FROM g.tet_chunks"); err != nil {
				return err
			}
			return scalar(ctx, db, "grid,raw", "SELECT group_concat(name) FROM (SELECT name FROM g.tet_datasets ORDER BY name)")
		}},
		{"errors", func(ctx context.Context, db *sql.DB, r *rand.Rand) error {
			_, err := db.ExecContext(ctx, "INSERT INTO s.temperature VALUES (0, 0, 1)")
			if err := wantErr(err, "read-only"); err != nil {
				return err
			}
			_, err = db.QueryContext(ctx, "SELECT * FROM g.nosuch")
			if err := wantErr(err, "no such table"); err != nil {
				return err
			}
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if err := db.QueryRowContext(cctx, "SELECT sum(value) FROM g.raw").Scan(new(float64)); !errors.Is(err, context.Canceled) {
				return fmt.Errorf("canceled context: %v", err)
			}
			return nil
		}},
		{"stats", func(ctx context.Context, db *sql.DB, r *rand.Rand) error {
			conn, err := db.Conn(ctx)
			if err != nil {
				return err
			}
			defer conn.Close()
			tetsql.Scans(ctx, conn) // forget earlier scans on this connection
			x := r.IntN(soakX)
			var n int
			if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM g.grid WHERE x = ?", x).Scan(&n); err != nil || n != soakY {
				return fmt.Errorf("stats query: %d %v", n, err)
			}
			scans, err := tetsql.Scans(ctx, conn)
			rows := int64(soakY) // the cells scan, or one row of its _agg rewrite
			if len(scans) == 1 && strings.HasSuffix(scans[0].Table, "_agg") {
				rows = 1
			}
			if err != nil || len(scans) != 1 || scans[0].ChunksDecoded != 3 || scans[0].Rows != rows {
				return fmt.Errorf("scans %+v %v", scans, err)
			}
			return nil
		}},
	}
}

// TestSoak runs mixed queries from many goroutines against three *sql.DB
// on the same files (pools of 4, with and without read-ahead, one through
// NewConnector) while another goroutine keeps opening and closing
// databases on them, checking every answer; then it checks that heap,
// file descriptors, goroutines and vtab's open files return to their
// baseline. Not parallel: it measures the process.
func TestSoak(t *testing.T) {
	dur := soakDuration(t)
	dir := t.TempDir()
	gpath := filepath.Join(dir, "soak.tet")
	writeGrids(t, gpath,
		grid{name: "grid", shape: [2]int64{soakX, soakY}, chunks: [2]int64{16, 16}, codec: tetcore.CodecZstd, labels: true},
		grid{name: "raw", shape: [2]int64{soakX, soakY}, chunks: [2]int64{64, 12}, codec: tetcore.CodecRaw})
	files := "s=" + ref("sample.tet") + ";u8=" + ref("multichunk_u8.tet") + ";g=" + gpath
	before := measure()

	var dbs []*sql.DB
	for _, dsn := range []string{files, files + "?read_ahead=2&decode_parallelism=2"} {
		db, err := sql.Open("tetsql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(4)
		dbs = append(dbs, db)
	}
	cfg, err := tetsql.ParseDSN(files)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ReadAhead = 1
	c, err := tetsql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dbs = append(dbs, sql.OpenDB(c))
	dbs[2].SetMaxOpenConns(2)

	queries := soakQueries()
	counts := make([]atomic.Int64, len(queries))
	var failures atomic.Int64
	fail := func(format string, args ...any) {
		if failures.Add(1) <= 10 {
			t.Errorf(format, args...)
		}
	}
	ctx := context.Background()
	stop := time.Now().Add(dur)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 1))
			db := dbs[w%len(dbs)]
			for i := w; time.Now().Before(stop); i++ {
				q := queries[i%len(queries)]
				if err := q.run(ctx, db, r); err != nil {
					fail("%s: %v", q.name, err)
				}
				counts[i%len(queries)].Add(1)
			}
		})
	}
	var churned atomic.Int64
	wg.Go(func() { // databases opened and closed while the others run
		r := rand.New(rand.NewPCG(99, 1))
		for time.Now().Before(stop) {
			db, err := sql.Open("tetsql", files)
			if err != nil {
				fail("churn open: %v", err)
				return
			}
			q := queries[r.IntN(len(queries))]
			if err := q.run(ctx, db, r); err != nil {
				fail("churn %s: %v", q.name, err)
			}
			db.Close()
			churned.Add(1)
		}
	})
	wg.Wait()
	for _, db := range dbs {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}

	var total int64
	var parts []string
	for i, q := range queries {
		total += counts[i].Load()
		parts = append(parts, fmt.Sprintf("%s=%d", q.name, counts[i].Load()))
	}
	t.Logf("%v: %d query groups (%s), %d databases opened and closed", dur, total, strings.Join(parts, " "), churned.Load())
	if total < int64(len(queries)) {
		t.Errorf("only %d query groups ran", total)
	}

	// Resources come back (goroutines of closed pools exit asynchronously).
	var after resources
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		after = measure()
		if after.goroutines <= before.goroutines && after.fds <= before.fds &&
			slices.Equal(after.open, before.open) && after.bound <= before.bound || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("heap %d KiB → %d KiB, fds %d → %d, goroutines %d → %d, open files %d → %d, bound objects %d → %d",
		before.heap>>10, after.heap>>10, before.fds, after.fds, before.goroutines, after.goroutines, len(before.open), len(after.open),
		before.bound, after.bound)
	if after.bound > before.bound {
		t.Errorf("the SQLite binding holds %d objects after close, %d before", after.bound, before.bound)
	}
	if after.fds > before.fds {
		t.Errorf("%d file descriptors open after close, %d before", after.fds, before.fds)
	}
	if after.goroutines > before.goroutines {
		t.Errorf("%d goroutines after close, %d before", after.goroutines, before.goroutines)
	}
	if !slices.Equal(after.open, before.open) {
		t.Errorf("open files after close %v, before %v", after.open, before.open)
	}
	if after.heap > before.heap+8<<20 {
		t.Errorf("live heap grew from %d to %d bytes", before.heap, after.heap)
	}
}
