package tetsql_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tetsql "github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/vtab"
)

// TestScans_keepNewest: past vtab.MaxKeptScans unread scans, Scans returns
// the newest ones in order (not the first ones), and tet_last_scan() is
// the latest scan.
func TestScans_keepNewest(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "g.tet")
	writeGrids(t, path, grid{name: "g", shape: [2]int64{1, 2000}, chunks: [2]int64{1, 2000}})
	_, conn := openConn(t, path+"?agg_rewrite=false") // cells scans, not their _agg rewrite
	ctx := context.Background()
	const n = vtab.MaxKeptScans + 100
	for i := 1; i <= n; i++ {
		// The scan emits exactly i rows: its Rows counter names it.
		var got int
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM g WHERE y < ?", i).Scan(&got); err != nil || got != i {
			t.Fatalf("query %d: %d %v", i, got, err)
		}
	}
	scans, err := tetsql.Scans(ctx, conn)
	if err != nil || len(scans) != vtab.MaxKeptScans {
		t.Fatalf("%d scans, %v; want %d", len(scans), err, vtab.MaxKeptScans)
	}
	for k, s := range scans {
		if want := int64(n - vtab.MaxKeptScans + 1 + k); s.Rows != want {
			t.Fatalf("scan %d has rows=%d, want %d (newest scans in order)", k, s.Rows, want)
		}
	}
	var js string
	if err := conn.QueryRowContext(ctx, "SELECT tet_last_scan()").Scan(&js); err != nil || !strings.Contains(js, fmt.Sprintf(`"rows":%d,`, n)) {
		t.Fatalf("tet_last_scan %s %v, want rows=%d", js, err, n)
	}
	// Taken scans are forgotten; the next one starts a fresh list.
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM g WHERE y < 7").Scan(new(int)); err != nil {
		t.Fatal(err)
	}
	if scans, err := tetsql.Scans(ctx, conn); err != nil || len(scans) != 1 || scans[0].Rows != 7 {
		t.Fatalf("after taking: %+v %v", scans, err)
	}
}
