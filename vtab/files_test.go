package vtab_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// countingFormat is tetcore's format counting its opens.
type countingFormat struct {
	array.Format
	opens *atomic.Int64
}

func (f countingFormat) Open(path string, o array.Options) (array.Source, error) {
	f.opens.Add(1)
	return f.Format.Open(path, o)
}

// TestFilesOpensOnlyForDatasets checks that tet_files opens files only
// when the datasets column is read (SQLite's colUsed), and closes each
// again: the registry holds nothing after the listing.
func TestFilesOpensOnlyForDatasets(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{"k=1/a.tet", "k=2/b.tet", "k=2/c.tet"} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeF64(t, p, 8, 4, tetcore.CodecRaw, func(i int64) float64 { return float64(i) })
	}
	var opens atomic.Int64
	reg := scan.NewRegistry([]array.Format{countingFormat{tetcore.Format, &opens}})
	db := sql.OpenDB(vtab.Connector{Name: ":memory:", Session: vtab.NewSession(reg)})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	pattern := root + "/k=*/*.tet"

	for _, c := range []struct {
		q         string
		want      string
		wantOpens int64
	}{
		{"SELECT count(*) FROM tet_files(?)", "3", 0},
		{"SELECT group_concat(size > 0, '') FROM tet_files(?)", "111", 0},
		{"SELECT group_concat(format, ',') FROM tet_files(?)", "tet,tet,tet", 0},
		{"SELECT sum(datasets) FROM tet_files(?)", "3", 3},
		{"SELECT count(*) FROM tet_files(?) WHERE datasets = 1", "3", 3},
		{"SELECT group_concat(substr(path, length(?2) + 1), ',') FROM tet_files(?1)", "/k=1/a.tet,/k=2/b.tet,/k=2/c.tet", 0},
	} {
		opens.Store(0)
		var got string
		if err := db.QueryRow(c.q, pattern, root).Scan(&got); err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if got != c.want || opens.Load() != c.wantOpens {
			t.Errorf("%s: %q with %d opens, want %q with %d", c.q, got, opens.Load(), c.want, c.wantOpens)
		}
		if open := reg.OpenPaths(); len(open) != 0 {
			t.Errorf("%s: still open: %q", c.q, open)
		}
	}
}

// TestFilesBadPattern checks that a bad pattern fails the statement
// with path.Match's reason.
func TestFilesBadPattern(t *testing.T) {
	db, _ := openDB(t, nil)
	_, err := db.Query("SELECT * FROM tet_files(?)", "/proc/self/fd/[")
	if err == nil || !strings.Contains(err.Error(), "syntax error in pattern") {
		t.Errorf("bad pattern: %v", err)
	}
}
