package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRev_filesChangedAfterCreate: files rewritten (other shape and
// values), or removed, between queries of one table.
func TestRev_filesChangedAfterCreate(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 1))
	var paths []string
	for m := 1; m <= 4; m++ {
		paths = append(paths, manyMonth(t, dir, 2020, m, 28, rng))
	}
	db, sess := openDB(t, nil)
	sess.Warn = func(string) {}
	glob := filepath.Join(dir, "**", "*.tet")
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s', 't2m')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s', 't2m', 'kind=agg')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s USING tet_many('%s', 't2m', 'on_error=skip')`, glob))
	q := `SELECT month, count(*), sum(value) FROM m GROUP BY month ORDER BY month`
	qa := `SELECT month, count + null_count, sum FROM m_agg WHERE by = 'month' ORDER BY month`
	before := rowsOf(t, db, q)
	if got := rowsOf(t, db, qa); !sameRows(got, before) {
		t.Fatalf("before: agg %v, cells %v", got, before)
	}
	// Rewrite the first (template) and the third file with other days.
	rng2 := rand.New(rand.NewPCG(2, 2))
	for _, m := range []int{1, 3} {
		tmp := t.TempDir()
		p := manyMonth(t, tmp, 2020, m, 31, rng2)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// Write through a new inode, as a tool replacing a file does.
		dst := paths[m-1]
		if err := os.WriteFile(dst+".new", b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(dst+".new", dst); err != nil {
			t.Fatal(err)
		}
	}
	fresh, _ := openDB(t, nil)
	mustExec(t, fresh, fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s', 't2m')`, glob))
	want := rowsOf(t, fresh, q)
	if sameRows(want, before) {
		t.Fatal("the rewrite changed nothing")
	}
	if got := rowsOf(t, db, q); !sameRows(got, want) {
		t.Errorf("after a rewrite, cells: %v, want %v", got, want)
	}
	if got := rowsOf(t, db, qa); !sameRows(got, want) {
		t.Errorf("after a rewrite, agg: %v, want %v", got, want)
	}
	// Remove the second file: an error naming it, or skipped.
	if err := os.Remove(paths[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`SELECT count(*) FROM m`); err == nil || !strings.Contains(err.Error(), "month=02") {
		t.Errorf("a removed file: %v, want an error naming it", err)
	}
	if _, err := db.Exec(`SELECT count FROM m_agg`); err == nil || !strings.Contains(err.Error(), "month=02") {
		t.Errorf("a removed file (agg): %v, want an error naming it", err)
	}
	got := rowsOf(t, db, `SELECT month, count(*) FROM s GROUP BY month ORDER BY month`)
	if len(got) != 3 || strings.HasPrefix(got[1], "02|") {
		t.Errorf("a removed file skipped: %v", got)
	}
}
