package tetsql_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql"
)

// endless is pure SQLite work that never ends: a recursive CTE with no
// bound. The first form does it all in the first step (inside
// QueryContext); the second returns a row at once and then searches on
// in the second step, which only an interrupt of ours can stop.
const (
	endlessFirst = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"
	endlessLater = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c WHERE x = 1 OR x < 0"
)

// TestLimits_statementTimeout runs statements past statement_timeout:
// each fails promptly with "statement time limit of 300ms exceeded"
// (errors.Is ErrTimeLimit and context.DeadlineExceeded), and the same
// connection answers the next query.
func TestLimits_statementTimeout(t *testing.T) {
	t.Parallel()
	big := bigFile(t)
	for _, tc := range []struct {
		name, dsn, q string
		exec         bool
	}{
		{"sqlite first step", "testdata/demo.tet?statement_timeout=300ms", endlessFirst, false},
		{"sqlite later step", "testdata/demo.tet?statement_timeout=300ms", endlessLater, false},
		{"sqlite exec", "testdata/demo.tet?statement_timeout=300ms", endlessFirst, true},
		{"safe mode, tet scan later step", big + "?safe=1&statement_timeout=0.3", "SELECT rowid FROM big WHERE +value IN (0, -1)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, conn := openConn(t, tc.dsn)
			ctx := context.Background()
			start := time.Now()
			var err error
			if tc.exec {
				_, err = conn.ExecContext(ctx, tc.q)
			} else {
				var rows interface {
					Next() bool
					Err() error
					Close() error
				}
				rows, err = conn.QueryContext(ctx, tc.q)
				if err == nil {
					n := 0
					for rows.Next() {
						n++
					}
					err = rows.Err()
					rows.Close()
				}
			}
			took := time.Since(start)
			var tle *tetsql.TimeLimitError
			if !errors.Is(err, tetsql.ErrTimeLimit) || !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &tle) ||
				err.Error() != "statement time limit of 300ms exceeded" {
				t.Fatalf("got %v after %v", err, took)
			}
			if took > 300*time.Millisecond+maxCancelLatency {
				t.Errorf("stopped after %v", took)
			}
			var n int
			if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM tet_datasets").Scan(&n); err != nil || n == 0 {
				t.Fatalf("next query on the connection: %d, %v", n, err)
			}
		})
	}
}

// TestLimits_callerDeadlineStopsLaterStep: the interrupt of a later step
// also serves the caller's own deadline, which keeps its own error.
func TestLimits_callerDeadlineStopsLaterStep(t *testing.T) {
	t.Parallel()
	_, conn := openConn(t, "testdata/demo.tet")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	rows, err := conn.QueryContext(ctx, endlessLater)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
	}
	err = rows.Err()
	rows.Close()
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, tetsql.ErrTimeLimit) {
		t.Fatalf("got %v", err)
	}
}

// TestLimits_maxRows: a result of exactly max_rows rows is delivered
// whole; one more row fails the result after max_rows rows, and the
// connection answers the next query.
func TestLimits_maxRows(t *testing.T) {
	t.Parallel()
	_, conn := openConn(t, "testdata/demo.tet?max_rows=10")
	ctx := context.Background()
	for _, tc := range []struct {
		q       string
		rows    int
		wantErr bool
	}{
		{"SELECT value FROM temperature LIMIT 10", 10, false},
		{"SELECT value FROM temperature LIMIT 11", 10, true},
		{"SELECT value FROM temperature", 10, true},
		{"SELECT x FROM (SELECT 1 AS x UNION ALL SELECT 2)", 2, false},
	} {
		rows, err := conn.QueryContext(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		err = rows.Err()
		rows.Close()
		var mre *tetsql.MaxRowsError
		if tc.wantErr != (err != nil) || n != tc.rows ||
			(tc.wantErr && (!errors.Is(err, tetsql.ErrMaxRows) || !errors.As(err, &mre) || err.Error() != "result has more than 10 rows (max_rows)")) {
			t.Errorf("%q: %d rows, %v", tc.q, n, err)
		}
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM temperature").Scan(&n); err != nil || n != 366*50 {
		t.Fatalf("after the refusals: %d, %v", n, err)
	}
}

// TestLimits_safeDefaults: safe mode lowers tetsql's memory limit to
// 256 MiB (an _agg query's groups), and an explicit mem_limit wins.
func TestLimits_safeDefaults(t *testing.T) {
	t.Parallel()
	big := bigFile(t)
	for _, tc := range []struct{ dsn, limit string }{
		{big, "1.0 GiB"},
		{big + "?safe=1", "256.0 MiB"},
		{big + "?safe=1&mem_limit=2MiB", "2.0 MiB"},
	} {
		_, conn := openConn(t, tc.dsn)
		_, err := conn.QueryContext(context.Background(), "SELECT count FROM big_agg('x,y')")
		if err == nil || !strings.Contains(err.Error(), "above the memory limit of "+tc.limit) {
			t.Errorf("%s: %v", tc.dsn, err)
		}
	}
}

// TestLimits_DSN parses the limit options.
func TestLimits_DSN(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		dsn     string
		safe    bool
		timeout time.Duration
		maxRows int64
		err     string
	}{
		{dsn: "a.tet?safe=1", safe: true},
		{dsn: "a.tet?safe=true&statement_timeout=1m30s&max_rows=5", safe: true, timeout: 90 * time.Second, maxRows: 5},
		{dsn: "a.tet?statement_timeout=2.5", timeout: 2500 * time.Millisecond},
		{dsn: "a.tet?safe=1&statement_timeout=0&max_rows=0", safe: true, timeout: -1, maxRows: -1},
		{dsn: "a.tet?safe=yes", err: `DSN option safe="yes"`},
		{dsn: "a.tet?statement_timeout=-1s", err: `DSN option statement_timeout="-1s"`},
		{dsn: "a.tet?statement_timeout=soon", err: `DSN option statement_timeout="soon"`},
		{dsn: "a.tet?statement_timeout=NaN", err: `DSN option statement_timeout="NaN"`},
		{dsn: "a.tet?max_rows=-3", err: `DSN option max_rows="-3"`},
		{dsn: "a.tet?max_rows=1e3", err: `DSN option max_rows="1e3"`},
	} {
		cfg, err := tetsql.ParseDSN(tc.dsn)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.dsn, err, tc.err)
			}
			continue
		}
		if err != nil || cfg.Safe != tc.safe || cfg.StatementTimeout != tc.timeout || cfg.MaxRows != tc.maxRows {
			t.Errorf("%s: %+v, %v", tc.dsn, cfg, err)
		}
	}
}
