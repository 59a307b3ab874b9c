package tetsql_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"
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
