package vtab_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// TestTopK_parallelFirstPass: the first top-k over a zstd dataset reads
// its chunks on several goroutines (a panic there proves it, and becomes
// an internal error instead of ending the process); the rows are those of
// a serial first pass (read-ahead off) and of the plain sort, and the
// next query, with statistics, still agrees.
func TestTopK_parallelFirstPass(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tk.tet")
	const chunk = 4096
	writeF64(t, path, 9*chunk+100, chunk, tetcore.CodecZstd, func(i int64) float64 { return float64((i * 7919) % 100003) })
	const q = "SELECT rowid, value FROM a.v ORDER BY value DESC LIMIT 5"
	const plain = "SELECT rowid, value FROM a.v ORDER BY +value DESC, rowid LIMIT 5"

	db, sess := openDB(t, map[string]string{"a": path})
	sess.DecodeParallelism = 3
	restore := vtab.PanicAt("top-k worker")
	rows, err := db.Query(q)
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	restore()
	serr := sess.TakeError()
	if msg := errString(err) + " / " + errString(serr); !strings.Contains(msg, "internal error in top-k worker") {
		t.Fatalf("error %q, want an internal error of the top-k worker", msg)
	}
	if serr != nil && !errors.Is(serr, vtab.ErrInternal) {
		t.Fatalf("session error %v does not match ErrInternal", serr)
	}

	want := rowsOf(t, db, plain)
	var counts [2][2]string           // per mode and pass: the scans' counters
	for m, ra := range []int{0, -1} { // parallel, then serial, each on a fresh file's statistics
		db, sess := openDB(t, map[string]string{"a": path})
		sess.ReadAhead = ra
		for pass := range 2 {
			if got := rowsOf(t, db, q); strings.Join(got, ";") != strings.Join(want, ";") {
				t.Fatalf("read-ahead %d pass %d: %v, want %v", ra, pass, got, want)
			}
			for _, sc := range sess.TakeScans() {
				counts[m][pass] += fmt.Sprintf("decoded %d skipped %d bytes %d; ", sc.ChunksDecoded, sc.ChunksSkipped, sc.BytesDecoded)
			}
		}
		if !isTopK(t, db, q) {
			t.Fatal("not a top-k plan")
		}
	}
	if counts[0] != counts[1] || !strings.Contains(counts[0][0], "decoded 10 ") {
		t.Errorf("scan counters parallel %q, serial %q; want equal, 10 chunks decoded first", counts[0], counts[1])
	}
	t.Log(counts)
}
