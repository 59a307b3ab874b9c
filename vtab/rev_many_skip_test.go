package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRev_skipFileFailingMidScan: with on_error=skip a file whose header
// reads but one of whose later chunks is damaged is skipped: wholly by
// the aggregate table; by a cells scan from the damage on, with a warning
// saying how many of its rows were already returned.
func TestRev_skipFileFailingMidScan(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	var paths []string
	for m := 1; m <= 3; m++ {
		paths = append(paths, manyMonth(t, dir, 2020, m, 28, rng))
	}
	bad := paths[1]
	orig, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	// Find a damage that lets the file open and fails its scan after
	// some rows.
	found := false
	for off := len(orig) / 2; off < len(orig)-64 && !found; off++ {
		b := append([]byte(nil), orig...)
		for k := range 8 {
			b[off+k] ^= 0x5a
		}
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		db, _ := openDB(t, map[string]string{"one": bad})
		rows, err := db.Query(`SELECT value FROM one.t2m`)
		if err != nil {
			db.Close()
			continue
		}
		n := 0
		for rows.Next() {
			n++
		}
		if rows.Err() != nil && n > 0 {
			found = true
			t.Logf("damage at %d: %d rows before the error %v", off, n, rows.Err())
		}
		rows.Close()
		db.Close()
	}
	if !found {
		t.Skip("no damage found that fails mid-scan")
	}
	db, sess := openDB(t, nil)
	var warnings []string
	sess.Warn = func(m string) { warnings = append(warnings, m) }
	glob := filepath.Join(dir, "**", "*.tet")
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s USING tet_many('%s', 't2m', 'on_error=skip')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s_agg USING tet_many('%s', 't2m', 'on_error=skip', 'kind=agg')`, glob))
	cells := rowsOf(t, db, `SELECT count(*) FROM s`)
	agg := rowsOf(t, db, `SELECT count + null_count FROM s_agg`)
	perFile := rowsOf(t, db, `SELECT file, count(*) FROM s GROUP BY file ORDER BY file`)
	// The aggregate leaves the whole file out. A cells scan cannot take
	// back the rows it returned before the damage (docs/SQL.md): it holds
	// the good files, part of the damaged one, and says so.
	var n int
	fmt.Sscan(cells[0], &n)
	if !sameRows(agg, []string{fmt.Sprint(2 * 28 * 20)}) || n <= 2*28*20 || n >= 3*28*20 {
		t.Errorf("skipped file: cells count %v, aggregate count %v, want %d and between %d and %d; per file %v; warnings %q",
			cells, agg, 2*28*20, 2*28*20, 3*28*20, perFile, warnings)
	}
	if len(warnings) == 0 || !strings.Contains(warnings[0], "(the rest of the file, after ") {
		t.Errorf("warnings %q, want one saying rows of the file were returned", warnings)
	}
}
