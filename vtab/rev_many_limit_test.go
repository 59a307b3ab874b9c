package vtab_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestRev_earlyStopsLeaveNothingRunning: scans stopped early (LIMIT,
// EXISTS, a closed Rows) over many files, repeated, leave no goroutine
// and give stable answers.
func TestRev_earlyStopsLeaveNothingRunning(t *testing.T) {
	run, dir := revSetup(t)
	db, _ := openDB(t, nil)
	glob := filepath.Join(dir, "**", "*.tet")
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s', 't2m')`, glob))
	base := runtime.NumGoroutine()
	want, _ := run(`SELECT file, time, lat, lon, value FROM native WHERE lat = 2 LIMIT 3 OFFSET 700`)
	for range 30 {
		got := rowsOf(t, db, `SELECT file, time, lat, lon, value FROM m WHERE lat = 2 LIMIT 3 OFFSET 700`)
		if !sameRows(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		rowsOf(t, db, `SELECT EXISTS (SELECT 1 FROM m WHERE value > 0)`)
		rows, err := db.Query(`SELECT * FROM m`)
		if err != nil {
			t.Fatal(err)
		}
		rows.Next()
		rows.Close()
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}
