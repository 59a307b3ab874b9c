package vtab_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestRev_aggMemLimitAcrossFiles: merged groups over many files count
// against mem_limit; hitting it fails the statement (also with
// on_error=skip), stops the workers, and leaves the next query whole.
func TestRev_aggMemLimitAcrossFiles(t *testing.T) {
	_, dir := revSetup(t)
	db, sess := openDB(t, nil)
	sess.Warn = func(string) {}
	glob := filepath.Join(dir, "**", "*.tet")
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s_agg USING tet_many('%s', 't2m', 'on_error=skip', 'kind=agg')`, glob))
	want := rowsOf(t, db, `SELECT count FROM s_agg`)
	sess.MemLimit = 1 << 20
	base := runtime.NumGoroutine()
	for range 5 {
		_, err := db.Exec(`SELECT file, time, lat, lon, count FROM s_agg WHERE by = 'file,time,lat,lon'`)
		if err == nil {
			t.Fatal("10,000 groups under a 1 MiB limit: no error")
		}
		if got := rowsOf(t, db, `SELECT count FROM s_agg`); !sameRows(got, want) {
			t.Fatalf("after the limit: %v, want %v", got, want)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		t.Errorf("%d goroutines, %d before", n, base)
	}
}
