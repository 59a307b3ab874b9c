package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestRev_skipFileFailingMidScan: with on_error=skip a file whose header
// reads but one of whose later chunks is damaged is skipped; the cells
// table must then hold none of its rows (as the aggregate table does),
// not the rows read before the damaged chunk.
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
	if !sameRows(cells, agg) || !sameRows(cells, []string{fmt.Sprint(2 * 28 * 20)}) {
		t.Errorf("skipped file: cells count %v, aggregate count %v, want both %d (the two good files); per file %v; warnings %q",
			cells, agg, 2*28*20, perFile, warnings)
	}
}
