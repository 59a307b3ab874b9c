package vtab_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestRev_cancelDuringSkip: a statement cancelled while on_error=skip
// passes over a damaged file must fail (or give the whole answer), never
// return an answer missing files it did not read.
func TestRev_cancelDuringSkip(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(9, 9))
	var paths []string
	for m := range 12 {
		paths = append(paths, manyMonth(t, dir, 2020, m+1, 28, rng))
	}
	b, _ := os.ReadFile(paths[2])
	os.WriteFile(paths[2], b[:len(b)/3], 0o644)
	db, sess := openDB(t, nil)
	glob := filepath.Join(dir, "**", "*.tet")
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s USING tet_many('%s', 't2m', 'on_error=skip')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s_agg USING tet_many('%s', 't2m', 'on_error=skip', 'kind=agg')`, glob))
	sess.Warn = func(string) {}
	full := map[string][]string{}
	qs := []string{`SELECT count(*) FROM s`, `SELECT count + null_count FROM s_agg`, `SELECT month, count + null_count FROM s_agg WHERE by = 'month'`}
	for _, q := range qs {
		full[q] = rowsOf(t, db, q)
	}
	for _, q := range qs {
		ctx, cancel := context.WithCancel(context.Background())
		sess.Warn = func(string) { cancel() }
		rows, err := db.QueryContext(ctx, q)
		var got []string
		if err == nil {
			for rows.Next() {
				var a, b any
				if len(full[q][0]) > 0 && len(rowsColumns(rows)) == 2 {
					rows.Scan(&a, &b)
					got = append(got, fmt.Sprint(a, "|", b))
				} else {
					rows.Scan(&a)
					got = append(got, fmt.Sprint(a))
				}
			}
			err = rows.Err()
			rows.Close()
		}
		cancel()
		if err == nil && !sameRows(got, full[q]) {
			t.Errorf("%s cancelled at the skipped file: %v with no error, whole answer %v", q, got, full[q])
		}
	}
}

func rowsColumns(r interface{ Columns() ([]string, error) }) []string {
	c, _ := r.Columns()
	return c
}
