package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRev_symlinkLoop: a directory symlink pointing up the tree must not
// make ** walk forever nor count files twice.
func TestRev_symlinkLoop(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 1))
	for m := 1; m <= 2; m++ {
		manyMonth(t, dir, 2020, m, 28, rng)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "year=2020", "loop")); err != nil {
		t.Skip(err)
	}
	db, _ := openDB(t, nil)
	start := time.Now()
	_, err := db.Exec(fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s/**/*.tet', 't2m')`, dir))
	el := time.Since(start)
	if err != nil {
		t.Logf("CREATE over a symlink loop: %v after %v", err, el)
		return
	}
	got := rowsOf(t, db, `SELECT count(DISTINCT file), count(*) FROM m`)
	t.Logf("symlink loop: %v in %v", got, el)
	if got[0] != "2|1120" {
		t.Errorf("files counted through the loop: %v, want 2 files, 1120 rows", got)
	}
}
