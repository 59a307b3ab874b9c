package tetsql_test

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/vtab"
)

// TestMemLimit_DSN sets mem_limit through the DSN: an aggregate whose
// groups exceed it fails with an error matching vtab.ErrMemLimit, and the
// pooled connection answers the next query.
func TestMemLimit_DSN(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "g.tet")
	writeGrids(t, path, grid{name: "g", shape: [2]int64{64, 64}, chunks: [2]int64{16, 16}})
	db, err := sql.Open("tetsql", path+"?mem_limit=16KiB")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// 64×64 = 4096 groups of ~112 bytes: 448 KiB.
	_, err = db.Query("SELECT count FROM g_agg('x,y')")
	if !errors.Is(err, vtab.ErrMemLimit) || !strings.Contains(err.Error(),
		"tet: g.g_agg: grouping needs 448.0 KiB for 4096 groups, above the memory limit of 16.0 KiB (DSN option mem_limit, shell --mem-limit)") {
		t.Fatalf("4096 groups under 16 KiB: %v", err)
	}
	var n, sum int64
	if err := db.QueryRow("SELECT count(*), sum(count) FROM g_agg('x')").Scan(&n, &sum); err != nil || n != 64 || sum != 4096 {
		t.Fatalf("64 groups after the refusal: %d groups, sum %d, %v", n, sum, err)
	}
}
