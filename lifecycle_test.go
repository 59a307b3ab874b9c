package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/tetcore"
)

// copyFile copies src to a new file in dir and returns its absolute path.
func copyFile(t testing.TB, src, dir string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst, _ := filepath.Abs(filepath.Join(dir, filepath.Base(src)))
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestOpenError_namesFileAndIsolated opens databases on files that are
// missing, not .tet files, or truncated: the first use fails naming the
// file and the reason, while databases on good files (the same path as a
// good file in the failing DSN, too) keep working, and the good file the
// failing DSN opened first is released.
func TestOpenError_namesFileAndIsolated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := copyFile(t, ref("sample.tet"), dir)
	garbage := filepath.Join(dir, "garbage.tet")
	os.WriteFile(garbage, []byte("this is not a tet file, not even close....................."), 0o644)
	whole, _ := os.ReadFile(good)
	truncated := filepath.Join(dir, "truncated.tet")
	os.WriteFile(truncated, whole[:len(whole)/2], 0o644)

	okDB, err := sql.Open("tetsql", good)
	if err != nil {
		t.Fatal(err)
	}
	defer okDB.Close()
	for _, tc := range []struct {
		path string
		is   error
	}{
		{filepath.Join(dir, "missing.tet"), fs.ErrNotExist},
		{garbage, array.ErrUnknownFormat}, // no format recognises its first bytes
		{truncated, nil},                  // any reason, as long as the file is named
		{dir, nil},                        // a directory
	} {
		db, err := sql.Open("tetsql", "ok="+good+";bad="+tc.path)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // the error is not cached: every attempt retries
			var n int
			err = db.QueryRow("SELECT count(*) FROM ok.temperature").Scan(&n)
			if err == nil || !strings.Contains(err.Error(), tc.path) || !strings.HasPrefix(err.Error(), "tetsql: open ") {
				t.Errorf("%s: err %v, want one naming the file", tc.path, err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("%s: err %v, want errors.Is %v", tc.path, err, tc.is)
			}
			// The good database, on the same file, is unaffected.
			var sum float64
			if err := okDB.QueryRow("SELECT sum(value) FROM temperature").Scan(&sum); err != nil || sum != 21 {
				t.Errorf("good database next to %s: %v %v", tc.path, sum, err)
			}
		}
		db.Close()
	}
	okDB.Close()
	if open := tetsql.OpenPaths(); slices.Contains(open, good) {
		t.Errorf("%s still open after every database closed", good)
	}
}

// TestOpenError_fileAppearsLater: a database whose file is missing works
// once the file exists, without reopening the *sql.DB.
func TestOpenError_fileAppearsLater(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "later.tet")
	db, err := sql.Open("tetsql", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Fatalf("ping before the file exists: %v", err)
	}
	copyFile(t, ref("sample.tet"), dir)
	os.Rename(filepath.Join(dir, "sample.tet"), path)
	var n int
	if err := db.QueryRow("SELECT count(*) FROM temperature").Scan(&n); err != nil || n != 6 {
		t.Fatalf("after the file appeared: %d %v", n, err)
	}
}

// TestClose_whileIterating closes the *sql.DB (and its connector) while
// queries are iterating: they finish with correct results or errors,
// never a crash, and the file stays mapped until the last cursor closes.
// Run with -race.
func TestClose_whileIterating(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "close.tet")
	writeGrids(t, path,
		grid{name: "z", shape: [2]int64{128, 128}, chunks: [2]int64{16, 16}, codec: tetcore.CodecZstd},
		grid{name: "r", shape: [2]int64{128, 128}, chunks: [2]int64{32, 32}, codec: tetcore.CodecRaw})
	abs, _ := filepath.Abs(path)
	const total = 128 * 128 * (128*128 - 1) / 2
	for _, opts := range []string{"", "?read_ahead=4"} {
		for _, table := range []string{"z", "r"} {
			db, err := sql.Open("tetsql", path+opts)
			if err != nil {
				t.Fatal(err)
			}
			db.SetMaxOpenConns(4)
			var wg sync.WaitGroup
			started := make(chan bool, 4) // true: paused mid-iteration
			resume := make(chan struct{})
			for range 4 {
				wg.Go(func() {
					rows, err := db.Query("SELECT value FROM " + table)
					if err != nil {
						t.Error(err)
						started <- false
						return
					}
					defer rows.Close()
					sum, n := 0.0, 0
					for rows.Next() {
						var v float64
						if err := rows.Scan(&v); err != nil {
							t.Error(err)
							return
						}
						sum += v
						if n++; n == 1000 {
							started <- true
							<-resume // the DB closes meanwhile
						}
					}
					if err := rows.Err(); err != nil {
						t.Logf("%s%s: iteration ended with %v", table, opts, err)
					} else if sum != total {
						t.Errorf("%s%s: sum %v after %d rows, want %v", table, opts, sum, n, total)
					}
				})
			}
			paused := 0
			for range 4 {
				if <-started {
					paused++
				}
			}
			if err := db.Close(); err != nil {
				t.Error(err)
			}
			if paused > 0 && !slices.Contains(tetsql.OpenPaths(), abs) {
				t.Errorf("%s unmapped while cursors still read it", abs)
			}
			if err := db.Ping(); err == nil {
				t.Error("ping after Close succeeded")
			}
			close(resume)
			wg.Wait()
			if slices.Contains(tetsql.OpenPaths(), abs) {
				t.Errorf("%s%s: %s still open after every query ended", table, opts, abs)
			}
		}
	}
}

// TestClose_connectorWhileConnecting races Connector.Close against new
// connections and queries: each fails cleanly or succeeds.
func TestClose_connectorWhileConnecting(t *testing.T) {
	t.Parallel()
	for range 20 {
		c, err := tetsql.NewConnector(tetsql.Config{Files: []tetsql.FileSpec{{Path: ref("sample.tet")}}})
		if err != nil {
			t.Fatal(err)
		}
		db := sql.OpenDB(c)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				var sum float64
				err := db.QueryRowContext(context.Background(), "SELECT sum(value) FROM temperature").Scan(&sum)
				if err == nil && sum != 21 {
					t.Errorf("sum %v", sum)
				}
			})
		}
		db.Close()
		wg.Wait()
		if _, err := c.Connect(context.Background()); err == nil || !strings.Contains(err.Error(), "closed") {
			t.Errorf("connect after close: %v", err)
		}
	}
}
