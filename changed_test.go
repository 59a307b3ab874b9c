package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/tetcore"
)

// TestDriver_fileReplacedOnDisk replaces the file under an open
// database/sql pool (renamed over, then rewritten in place): every query
// afterwards sees the whole new file, neither the old one nor a mix, as
// the pool replaces the connections that map the old file.
func TestDriver_fileReplacedOnDisk(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.tet")
	writeGrids(t, path, grid{name: "g", shape: [2]int64{8, 16}, chunks: [2]int64{4, 16}})
	db, err := sql.Open("tetsql", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(2)
	// The values are the rowids 0..n-1: count n, sum n(n-1)/2.
	check := func(when string, n int64) {
		t.Helper()
		for range 3 {
			var cnt int64
			var sum float64
			if err := db.QueryRow(`SELECT count(*), sum(value) FROM g.g`).Scan(&cnt, &sum); err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			if cnt != n || sum != float64(n*(n-1)/2) {
				t.Fatalf("%s: count %d sum %v, want %d and %d", when, cnt, sum, n, n*(n-1)/2)
			}
		}
	}
	check("before", 128)

	tmp := filepath.Join(dir, "new.tet")
	writeGrids(t, tmp, grid{name: "g", shape: [2]int64{16, 16}, chunks: [2]int64{4, 16}})
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	check("after a rename over it", 256)

	other := filepath.Join(dir, "other.tet")
	writeGrids(t, other, grid{name: "g", shape: [2]int64{4, 16}, chunks: [2]int64{4, 16}})
	b, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // past the file system's timestamp granularity
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	check("after a rewrite in place", 64)
}

// TestAttach_keepsMaxChunkBytes: a file attached to a connection later
// (the shell's .open) is read under the connector's max_chunk_bytes too,
// not the 1 GiB default.
func TestAttach_keepsMaxChunkBytes(t *testing.T) {
	dir := t.TempDir()
	first, later := filepath.Join(dir, "first.tet"), filepath.Join(dir, "later.tet")
	writeGrids(t, first, grid{name: "g", shape: [2]int64{4, 4}, chunks: [2]int64{4, 4}})
	writeGrids(t, later, grid{name: "z", shape: [2]int64{64, 64}, chunks: [2]int64{64, 64}, codec: tetcore.CodecZstd})
	_, conn := openConn(t, first+"?max_chunk_bytes=1KiB")
	ctx := context.Background()
	if err := conn.Raw(func(dc any) error { return dc.(*tetsql.Conn).Attach(ctx, "l", later) }); err != nil {
		t.Fatal(err)
	}
	var n int64
	err := conn.QueryRowContext(ctx, `SELECT count(value) FROM l.z`).Scan(&n)
	if err == nil || !strings.Contains(err.Error(), "chunk larger than the configured limit") {
		t.Fatalf("16 KiB chunk under a 1 KiB limit: count %d, err %v", n, err)
	}
}

// TestMaxChunkBytes_perDatabaseOnSharedFile: two databases on the same
// file (opened once, shared) each read under their own max_chunk_bytes,
// whichever opened the file first: a limit given after the file is open
// still applies, and a larger one elsewhere is not narrowed by it.
func TestMaxChunkBytes_perDatabaseOnSharedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "z.tet")
	writeGrids(t, path, grid{name: "z", shape: [2]int64{64, 64}, chunks: [2]int64{64, 64}, codec: tetcore.CodecZstd})
	_, wide := openConn(t, path) // opens the file, default limit
	_, narrow := openConn(t, path+"?max_chunk_bytes=1KiB")
	ctx := context.Background()
	var n int64
	err := narrow.QueryRowContext(ctx, `SELECT count(value) FROM z.z`).Scan(&n)
	if !errors.Is(err, tetcore.ErrTooLarge) || !strings.Contains(err.Error(), "max_chunk_bytes") {
		t.Fatalf("16 KiB chunk under a 1 KiB limit on an open file: count %d, err %v", n, err)
	}
	if err := wide.QueryRowContext(ctx, `SELECT count(value) FROM z.z`).Scan(&n); err != nil || n != 64*64 {
		t.Fatalf("the other database: count %d, err %v", n, err)
	}
	if err := narrow.QueryRowContext(ctx, `SELECT count FROM z.z_agg`).Scan(&n); !errors.Is(err, tetcore.ErrTooLarge) {
		t.Fatalf("aggregate under the 1 KiB limit: count %d, err %v", n, err)
	}
}

// TestDriver_rewrittenUnderEarlyStoppedScan: a file rewritten in place
// while a scan runs that SQLite stops early (a LIMIT it applies itself,
// or one the table consumes) never ends as a complete result: the rows
// end with "file changed on disk" instead of io.EOF.
func TestDriver_rewrittenUnderEarlyStoppedScan(t *testing.T) {
	for _, q := range []string{
		"SELECT rowid, value FROM g.g LIMIT 4000",                        // LIMIT consumed by the table
		"SELECT rowid, value FROM g.g WHERE value > -1 LIMIT 4000",       // LIMIT applied by SQLite
		"SELECT r, v FROM (SELECT rowid r, value v FROM g.g LIMIT 4000)", // a subquery's LIMIT
	} {
		t.Run(q, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "g.tet")
			writeGrids(t, path, grid{name: "g", shape: [2]int64{64, 128}, chunks: [2]int64{4, 128}})
			_, conn := openConn(t, path)
			ctx := context.Background()
			rows, err := conn.QueryContext(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			n := 0
			for rows.Next() {
				if n++; n == 10 {
					rewriteInPlace(t, path)
				}
			}
			if err := rows.Err(); !errors.Is(err, tetcore.ErrChanged) {
				t.Fatalf("after %d rows: err %v, want file changed on disk", n, err)
			}
		})
	}
}

// rewriteInPlace overwrites the second half of the file's bytes with
// other bytes, keeping its inode and size (as dd conv=notrunc does), and
// moves its modification time so that the change is visible.
func rewriteInPlace(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	half := st.Size() / 2
	if _, err := f.WriteAt(make([]byte, half/2), half/2); err != nil {
		t.Fatal(err)
	}
	later := st.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}

// TestDriver_rewrittenUnderQueryRow: QueryRow reads one row and closes;
// a file rewritten under the statement fails Scan.
func TestDriver_rewrittenUnderQueryRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.tet")
	writeGrids(t, path, grid{name: "g", shape: [2]int64{64, 128}, chunks: [2]int64{4, 128}})
	_, conn := openConn(t, path)
	ctx := context.Background()
	rows, err := conn.QueryContext(ctx, "SELECT rowid, value FROM g.g")
	if err != nil {
		t.Fatal(err)
	}
	rows.Next()
	rewriteInPlace(t, path)
	if err := rows.Close(); !errors.Is(err, tetcore.ErrChanged) {
		t.Fatalf("Close after a rewrite: %v, want file changed on disk", err)
	}
}

// TestDriver_rowComputedAcrossRewrite: an aggregate over a LIMIT
// subquery computes its one row in the statement's first step, over a
// scan SQLite stops early; a file rewritten by then must fail the result
// before the row is handed out.
func TestDriver_rowComputedAcrossRewrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.tet")
	writeGrids(t, path, grid{name: "g", shape: [2]int64{64, 128}, chunks: [2]int64{4, 128}})
	_, conn := openConn(t, path)
	ctx := context.Background()
	rows, err := conn.QueryContext(ctx, "SELECT count(*), sum(v) FROM (SELECT value v FROM g.g WHERE value > -1 LIMIT 5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	rewriteInPlace(t, path)
	if rows.Next() {
		var n, s float64
		rows.Scan(&n, &s)
		t.Fatalf("a row (%v, %v) was delivered after the file changed", n, s)
	}
	if err := rows.Err(); !errors.Is(err, tetcore.ErrChanged) {
		t.Fatalf("err %v, want file changed on disk", err)
	}
}
