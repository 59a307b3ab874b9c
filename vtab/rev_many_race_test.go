package vtab_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestRev_aggErrorsLeaveNoWorkers: aggregate folds over many files, some
// damaged, some failing, some cancelled, leave no goroutine behind and
// give the same answers each time (run with -race).
func TestRev_aggErrorsLeaveNoWorkers(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(9, 9))
	var paths []string
	for m := range 24 {
		paths = append(paths, manyMonth(t, dir, 2020+m/12, m%12+1, 28, rng))
	}
	for _, k := range []int{5, 17} { // truncated: fails at open
		b, _ := os.ReadFile(paths[k])
		os.WriteFile(paths[k], b[:len(b)/3], 0o644)
	}
	{ // damaged chunk: fails mid-fold
		b, _ := os.ReadFile(paths[11])
		for k := range 8 {
			b[1689+k] ^= 0x5a
		}
		os.WriteFile(paths[11], b, 0o644)
	}
	db, sess := openDB(t, nil)
	sess.Warn = func(string) {}
	glob := filepath.Join(dir, "**", "*.tet")
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s_agg USING tet_many('%s', 't2m', 'on_error=skip', 'kind=agg')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s', 't2m', 'kind=agg')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s USING tet_many('%s', 't2m', 'on_error=skip')`, glob))
	base := runtime.NumGoroutine()
	first := map[string][]string{}
	for round := range 4 {
		for _, q := range []string{
			`SELECT count, sum, median, quantile FROM s_agg WHERE q = 0.25`,
			`SELECT year, month, count, var FROM s_agg WHERE by = 'year,month' ORDER BY 1, 2`,
			`SELECT lat, count, argmin, argmax FROM s_agg WHERE by = 'lat'`,
		} {
			got := rowsOf(t, db, q)
			if round == 0 {
				first[q] = got
			} else if !sameRows(got, first[q]) {
				t.Errorf("round %d: %s: %v, first %v", round, q, got, first[q])
			}
		}
		for _, q := range []string{`SELECT count, median FROM m_agg`, `SELECT lat, count FROM m_agg WHERE by = 'lat'`} {
			if _, err := db.Exec(q); err == nil || !strings.Contains(err.Error(), ".tet") {
				t.Errorf("%s: %v, want an error naming a file", q, err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(round)*time.Millisecond)
		rows, err := db.QueryContext(ctx, `SELECT count, median FROM s_agg WHERE by = 'time'`)
		if err == nil {
			for rows.Next() {
			}
			rows.Close()
		}
		cancel()
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the queries, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
	// The cells table and the aggregate table skip the same files.
	cells := rowsOf(t, db, `SELECT count(value) FROM s WHERE month <> '12'`)
	agg := rowsOf(t, db, `SELECT count FROM s_agg WHERE month <> '12'`)
	if !sameRows(cells, agg) {
		t.Errorf("count over the good files: cells %v, aggregate %v", cells, agg)
	}
}
