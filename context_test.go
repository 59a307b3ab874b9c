package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// maxCancelLatency bounds how long a canceled scan may take to return.
// The target is well under 100 ms; the bound is generous because the
// machine running the tests may be loaded (and -race is slow).
const maxCancelLatency = time.Second

// TestContext_cancelStopsScans cancels scans that would take seconds, at
// every place a scan can be running: inside QueryContext's first step
// (SQLite's interrupt), in a later step through rows (only the cursors'
// own check can stop it: modernc interrupts only the first step), in
// ExecContext, and waiting for read-ahead decodes of zstd chunks. The
// later-step queries hide value from the planner (+value): the scan
// would otherwise evaluate the IN itself, too fast to be cancelled.
func TestContext_cancelStopsScans(t *testing.T) {
	t.Parallel()
	path := bigFile(t)
	for _, tc := range []struct {
		name, dsn, query string
		exec, laterStep  bool
	}{
		{name: "first step", dsn: path + "?agg_rewrite=false", query: "SELECT sum(value) FROM big"},
		{name: "later step", dsn: path, query: "SELECT rowid FROM big WHERE +value IN (0, -1)", laterStep: true},
		{name: "exec", dsn: path, query: "CREATE TEMP TABLE copy AS SELECT value FROM big", exec: true},
		{name: "read-ahead first step", dsn: path + "?read_ahead=2&decode_parallelism=1&agg_rewrite=false", query: "SELECT sum(value) FROM z"},
		{name: "read-ahead later step", dsn: path + "?read_ahead=3", query: "SELECT rowid FROM z WHERE +value IN (0, -1)", laterStep: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := sql.Open("tetsql", tc.dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var canceledAt atomic.Pointer[time.Time]
			cancelSoon := func() *time.Timer {
				return time.AfterFunc(150*time.Millisecond, func() {
					now := time.Now()
					canceledAt.Store(&now)
					cancel()
				})
			}
			var done time.Time
			switch {
			case tc.exec:
				tm := cancelSoon()
				_, err = conn.ExecContext(ctx, tc.query)
				done = time.Now()
				tm.Stop()
			case tc.laterStep:
				rows, qerr := conn.QueryContext(ctx, tc.query)
				if qerr != nil {
					t.Fatal(qerr)
				}
				if !rows.Next() {
					t.Fatalf("no first row: %v", rows.Err())
				}
				tm := cancelSoon()
				for rows.Next() {
					t.Error("a second row, none expected")
				}
				done = time.Now()
				tm.Stop()
				err = rows.Err()
				rows.Close()
			default:
				tm := cancelSoon()
				var sum float64
				err = conn.QueryRowContext(ctx, tc.query).Scan(&sum)
				done = time.Now()
				tm.Stop()
			}
			at := canceledAt.Load()
			if at == nil {
				t.Fatalf("finished before the cancel: %v", err)
			}
			latency := done.Sub(*at)
			t.Logf("returned %v after cancel: %v", latency, err)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			if latency > maxCancelLatency {
				t.Errorf("took %v to stop after cancel", latency)
			}
			// The connection is still usable and sees no stale error.
			var n int
			if err := conn.QueryRowContext(context.Background(), "SELECT count(*) FROM big WHERE x = 7 AND y < 10").Scan(&n); err != nil || n != 10 {
				t.Errorf("after cancel: %d, %v", n, err)
			}
		})
	}
}

// TestContext_deadline checks DeadlineExceeded through a pooled *sql.DB.
func TestContext_deadline(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("tetsql", bigFile(t)+"?agg_rewrite=false") // a cells scan, not its _agg rewrite
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const timeout = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	var n int64
	err = db.QueryRowContext(ctx, "SELECT count(*) FROM big WHERE value >= 0").Scan(&n)
	late := time.Since(start) - timeout
	t.Logf("returned %v after the deadline: %v", late, err)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v (n = %d), want context.DeadlineExceeded", err, n)
	}
	if late > maxCancelLatency {
		t.Errorf("took %v past the deadline", late)
	}
	// A context done before the query starts fails it at once.
	if err := db.QueryRowContext(ctx, "SELECT 1").Scan(&n); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("expired context: %v", err)
	}
}
