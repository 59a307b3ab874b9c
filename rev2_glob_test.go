package tetsql_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tetsql/tetsql"
)

// TestRev2_routeSeventeenTerms: a plain aggregate over a cells table,
// which the driver answers from its _agg companion, keeps its answer with
// 17 terms. SQLite honours omit only for argvIndex 1..16; the 17th
// consumed term is re-checked on _agg's output row, where the ungrouped
// dim is NULL, and the row is dropped: count(*) is 0 instead of 32
// (without the rewrite, "+x < 4", the answer is right).
func TestRev2_routeSeventeenTerms(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	writeGrids(t, p, grid{name: "g", shape: [2]int64{8, 8}, chunks: [2]int64{4, 4}, labels: true})
	_, conn := openConn(t, p)
	for _, n := range []int{15, 16, 20} {
		where := "x < 4"
		for k := range n {
			where += fmt.Sprintf(" AND y > -%d", k+1)
		}
		got := scalar(t, conn, "SELECT count(*) FROM g WHERE "+where)
		plain := scalar(t, conn, "SELECT count(*) FROM g WHERE +x < 4 AND "+where)
		if got != "32" || plain != "32" {
			t.Errorf("x < 4 and %d bounds on y: count(*) %s (not rewritten: %s), want 32", n, got, plain)
		}
	}
}

// TestRev2_globDatasetRemoved: once the only file holding a dataset of a
// glob is removed, every new connection of the database fails (its table
// for that dataset cannot be created), although the glob still matches
// files with the other datasets. A pooled database/sql program is then
// stuck until it reopens the database.
func TestRev2_globDatasetRemoved(t *testing.T) {
	dir := t.TempDir()
	copyPath(t, "testdata/many/year=2024/month=01/era5.tet", filepath.Join(dir, "a/era5.tet"))
	if err := os.MkdirAll(filepath.Join(dir, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeGrids(t, filepath.Join(dir, "b/tp.tet"), grid{name: "tp", shape: [2]int64{2, 2}, chunks: [2]int64{2, 2}})
	db, first := openConn(t, filepath.ToSlash(dir)+"/*/*.tet")
	if got := scalar(t, first, "SELECT count(*) FROM t2m"); got != "6" {
		t.Fatalf("t2m: %s rows, want 6", got)
	}
	if err := os.Remove(filepath.Join(dir, "b/tp.tet")); err != nil {
		t.Fatal(err)
	}
	second, err := db.Conn(context.Background()) // the first is held: a new connection
	if err != nil {
		t.Fatalf("a new connection after the file of dataset tp was removed: %v", err)
	}
	defer second.Close()
	if got := scalar(t, second, "SELECT count(*) FROM t2m"); got != "6" {
		t.Errorf("t2m on the new connection: %s rows, want 6", got)
	}
}

// TestRev2_globParallel: many goroutines query a glob database through
// the pool (cells, _agg, pruning by hive column) and all get the answers
// of one connection.
func TestRev2_globParallel(t *testing.T) {
	testGlobParallel(t, false)
}

// TestRev2_poolChangedConnBadConn: as TestRev2_globParallel, with callers
// that leave a temp view on their connection. The
// view must not reach the next user, and it does not; but the next
// user's call fails with "driver: bad connection": ResetSession reports
// a changed connection as driver.ErrBadConn when it is handed out, and
// database/sql retries a call only three times, handing a full pool's
// recycled (changed) connections to the retries too. Checking changed()
// in IsValid (database/sql asks it when a connection is put back, before
// anyone gets it) would drop such a connection without failing a call.
// Not specific to globs (a file DSN shows it less often: its
// connections are set up faster).
func TestRev2_poolChangedConnBadConn(t *testing.T) {
	testGlobParallel(t, true)
}

func testGlobParallel(t *testing.T, leaveViews bool) {
	db, err := sql.Open("tetsql", "testdata/many/**/*.tet;d=testdata/demo.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(4)
	want := map[string]string{}
	queries := []string{
		"SELECT count(*) || '|' || total(value) FROM t2m",
		"SELECT count || '|' || sum FROM t2m_agg",
		"SELECT group_concat(n, ',') FROM (SELECT month || ':' || count AS n FROM t2m_agg WHERE by = 'month' ORDER BY month)",
		"SELECT count(*) || '|' || total(value) FROM t2m WHERE month IN ('01', '03')",
		"SELECT count(*) FROM t2m WHERE file LIKE '%month=02%'",
	}
	for _, q := range queries {
		var s string
		if err := db.QueryRow(q).Scan(&s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want[q] = s
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			for i := range 10 {
				conn, err := db.Conn(ctx)
				if err != nil {
					errs <- fmt.Errorf("db.Conn: %w", err)
					return
				}
				if leaveViews {
					// A temp view shadowing the glob's table must not
					// reach another user of this pooled connection.
					if _, err := conn.ExecContext(ctx, "CREATE TEMP VIEW t2m AS SELECT 1 AS value"); err != nil {
						errs <- err
					}
				}
				conn.Close()
				q := queries[(g+i)%len(queries)]
				var s string
				if err := db.QueryRow(q).Scan(&s); err != nil {
					errs <- fmt.Errorf("%s: %w", q, err)
					return
				}
				if s != want[q] {
					errs <- fmt.Errorf("%s: %s, want %s", q, s, want[q])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestRev2_attachGlobTwice: attaching a glob twice on one connection
// under the derived name fails the second time with the name in use and
// leaves the first schema working; under another alias it works.
func TestRev2_attachGlobTwice(t *testing.T) {
	_, conn := openConn(t, "testdata/demo.tet")
	ctx := context.Background()
	attach := func(alias, path string) error {
		return conn.Raw(func(dc any) error { return dc.(*tetsql.Conn).Attach(ctx, alias, path) })
	}
	if err := attach("", "testdata/many/**/*.tet"); err != nil {
		t.Fatal(err)
	}
	err := attach("", "testdata/many/**/*.tet")
	if err == nil || !strings.Contains(err.Error(), "many") {
		t.Errorf("second attach under the same name: %v, want an error naming the schema", err)
	}
	if err := attach("m2", "testdata/many/*/month=0[23]/*.tet"); err != nil {
		t.Fatal(err)
	}
	if got := scalar(t, conn, "SELECT (SELECT count(*) FROM many.t2m) || '|' || (SELECT count(*) FROM m2.t2m)"); got != "18|12" {
		t.Errorf("counts %s, want 18|12", got)
	}
}

// TestRev2_globSymlinkedPartition: a partition directory that is a
// symbolic link (data/2024 -> /other/disk/2024) is matched by a `*`
// segment but never walked into, so "data/*/*.tet" finds none of its
// files (documented: "never walked into, so a link cycle cannot loop").
// A pattern without `**` has a bounded depth and cannot loop; shells,
// Python's glob and DuckDB follow such links. Design question rather
// than a bug: following links for non-`**` segments (or for `**` with a
// visited set of directories) would keep the cycle guard.
func TestRev2_globSymlinkedPartition(t *testing.T) {
	dir := t.TempDir()
	copyPath(t, "testdata/many/year=2024/month=01/era5.tet", filepath.Join(dir, "disk2/2024/a.tet"))
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "disk2/2024"), filepath.Join(dir, "data/2024")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	files, err := tetsql.GlobFiles(filepath.ToSlash(dir) + "/data/*/*.tet")
	if err != nil || len(files) != 1 {
		t.Errorf("data/*/*.tet with data/2024 a link: %q, %v; want data/2024/a.tet", files, err)
	}
}
