package vtab_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev3_inRunsReadError: a chunk that fails to decode in a later run
// of a TEXT label IN list scanned run by run fails the statement (no
// partial answer), whether the failing run starts in Filter or after
// rows of an earlier run; runs that avoid the chunk answer.
func TestRev3_inRunsReadError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.tet")
	labels := []string{"l0", "l1", "l2", "l3", "l4", "l5"}
	spec := tetcore.DatasetSpec{Name: "z", DType: tetcore.F32, Shape: []int64{6, 50}, ChunkShape: []int64{1, 50}, Codec: tetcore.CodecZstd,
		DimNames: []string{"s", "t"}, Labels: [][]string{labels, nil}}
	writeTet(t, path, spec, func(k int) float32 { return float32(k % 7) })
	raw, _ := os.ReadFile(path)
	f, err := tetcore.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	c := f.Datasets[0].Chunks()[3]
	for i := c.Offset + 4; i < c.Offset+uint64(c.StoredLen); i++ {
		raw[i] ^= 0x5a // corrupt chunk [3 0]'s frame after its magic
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	db, sess := openDB(t, map[string]string{"b": path})
	for _, q := range []string{
		"SELECT count(*) FROM b.z WHERE s_label IN ('l0', 'l3', 'l5')",
		"SELECT sum(value) FROM b.z WHERE s_label IN ('l0', 'l3', 'l5')",
		"SELECT s, t, value FROM b.z WHERE s_label IN ('l0', 'l3')",
		"SELECT value FROM b.z WHERE s_label IN ('l3', 'l5')",
		"SELECT count(*) FROM b.z WHERE s_label IN ('l5', 'l3') AND value >= 0",
		"SELECT count(*) FROM (SELECT 1 FROM b.z WHERE s_label IN ('l0', 'l2', 'l3') LIMIT 120)",
	} {
		sess.TakeError()
		rows, err := db.Query(q)
		n := 0
		if err == nil {
			for rows.Next() {
				n++
			}
			err = rows.Err()
			rows.Close()
		}
		serr := sess.TakeError()
		if err == nil && serr == nil {
			t.Errorf("%s: no error (%d rows)", q, n)
			continue
		}
		if e := err; e == nil || !strings.Contains(e.Error(), "[3 0]") {
			t.Logf("%s: error %v (session %v)", q, err, serr)
		}
		if err == nil {
			t.Errorf("%s: the statement succeeded (%d rows); the session holds %v", q, n, serr)
		}
	}
	if got := rowsOf(t, db, "SELECT count(*), sum(value) FROM b.z WHERE s_label IN ('l0', 'l2', 'l5')"); !sameRows(got, rowsOf(t, db, "SELECT count(*), sum(value) FROM b.z WHERE s IN (0, 2, 5)")) {
		t.Errorf("runs avoiding the bad chunk: %v", got)
	}
}
