package vtab_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// TestPanics_becomeErrors makes each callback (and a fold worker) panic
// in turn: the statement must fail with an internal-error message, in
// bounded time, and the same connection must answer the next query.
// Not parallel: the panic hook is process-wide.
func TestPanics_becomeErrors(t *testing.T) {
	st := writeStations(t)
	db, sess := openDB(t, map[string]string{"st": st})
	abs, _ := filepath.Abs(st)
	if _, err := db.Exec("CREATE VIRTUAL TABLE extra USING tet('" + abs + "', cells, 'elev')"); err != nil {
		t.Fatal(err)
	}
	want := rowsOf(t, db, "SELECT sum(value) FROM st.temp")
	cases := []struct {
		where, q string
		fails    bool // false: the panic is contained without failing the statement
	}{
		{"xBestIndex", "SELECT sum(value) FROM st.temp WHERE station = 1", true},
		{"xOpen", "SELECT sum(value) FROM st.temp", true},
		{"xFilter", "SELECT sum(value) FROM st.temp", true},
		{"xFilter", "SELECT count FROM st.temp_agg('station')", true},
		{"xNext", "SELECT count FROM st.temp_agg('station')", true},
		{"xEof", "SELECT count FROM st.temp_agg", true},
		{"xColumn", "SELECT count FROM st.temp_agg", true},
		{"xRowid", "SELECT rowid, value FROM st.temp", true},
		{"xUpdate", "DELETE FROM st.temp", true},
		{"xCreate", "CREATE VIRTUAL TABLE nope USING tet('" + abs + "', cells, 'temp')", true},
		{"fold worker", "SELECT count FROM st.temp_agg", true},
		{"fold worker", "SELECT count FROM st.temp_agg('time')", true},
		{"tet_last_scan", "SELECT tet_last_scan()", true},
		{"xClose", "SELECT sum(value) FROM st.temp", false},
		{"xDisconnect", "DROP TABLE extra", false},
	}
	for _, tc := range cases {
		sess.TakeError()
		restore := vtab.PanicAt(tc.where)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		done := make(chan error, 1)
		go func() { done <- queryErrCtx(ctx, db, tc.q) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: %s hangs", tc.where, tc.q)
		}
		restore()
		cancel()
		msg := "tet: internal error in "
		switch {
		case tc.fails && (err == nil || !strings.Contains(errText(err, sess), msg+tc.where+": test panic in "+tc.where) &&
			!strings.Contains(errText(err, sess), msg+"st.temp_agg "+tc.where+": test panic in "+tc.where)):
			t.Errorf("panic in %s: %s: error %v, want %q…", tc.where, tc.q, err, msg+tc.where)
		case !tc.fails && err != nil:
			t.Errorf("panic in %s: %s: %v", tc.where, tc.q, err)
		}
		if got := rowsOf(t, db, "SELECT sum(value) FROM st.temp"); got[0] != want[0] {
			t.Fatalf("after a panic in %s: %v, want %v", tc.where, got, want)
		}
	}
}

// queryErrCtx runs q to the end and returns its error.
func queryErrCtx(ctx context.Context, db *sql.DB, q string) error {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// TestPanics_truncatedFileInFoldWorker: a raw chunk folded straight from
// the mapping of a file that shrank faults on a fold goroutine; that must
// be an error naming the file, not the end of the process.
func TestPanics_truncatedFileInFoldWorker(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shrink.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	const n, chunk = 1 << 20, 1 << 16 // 8 MiB of f64 in 16 raw chunks
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "v", DType: tetcore.F64, Shape: []int64{n}, ChunkShape: []int64{chunk}}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteDataset(make([]byte, 8*n)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	db, sess := openDB(t, map[string]string{"s": path})
	if got := rowsOf(t, db, "SELECT count FROM s.v_agg WHERE d0 < 10"); got[0] != "10" {
		t.Fatalf("before: %v", got) // maps the file
	}
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	// The statement's stat check usually sees the new size first ("file
	// changed on disk"); a fold that started before the truncation faults
	// instead ("was truncated while in use"). Either way: an error, and
	// the process lives.
	err = queryErr(db, "SELECT count, sum FROM s.v_agg")
	if err == nil {
		t.Fatal("after truncation: no error")
	}
	if msg := errText(err, sess); !strings.Contains(msg, "was truncated while in use") && !strings.Contains(msg, "file changed on disk") {
		t.Fatalf("after truncation: %v", err)
	}
}
