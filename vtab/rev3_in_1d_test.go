package vtab_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev3_inOneD: TEXT label IN lists on a 1-d dataset whose labels
// repeat far apart and are unsorted, in chunks of 3, against a native
// copy, in the shapes the run-by-run scan could get wrong.
func TestRev3_inOneD(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	labels := []string{"m", "a", "x", "a", "b", "", "m", "zz", "a", "b", "c", "m", "q"}
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{int64(len(labels))}, ChunkShape: []int64{3}, Codec: tetcore.CodecZstd,
		DimNames: []string{"s"}, Labels: [][]string{labels}}
	writeTet(t, p, spec, func(k int) float32 { return float32((k * 7) % 11) })
	db, _ := openDB(t, map[string]string{"one": p})
	mustExec(t, db, "CREATE TABLE nat(s INTEGER, s_label TEXT, value FLOAT)")
	mustExec(t, db, "INSERT INTO nat(rowid, s, s_label, value) SELECT rowid, s, s_label, value FROM one.v")
	for _, where := range []string{
		"s_label IN ('a', 'b')", "s_label IN ('b', 'a', 'a', NULL)", "s_label IN ('', 'q')", "s_label IN ('m', 'zz', 'c')",
		"s_label IN ('a', 'm') AND s BETWEEN 2 AND 9", "s_label IN ('a', 'm') AND value > 3", "s_label IN ('a', 'm') AND rowid % 2 = 0",
		"s_label IN ('a', 'm') AND s_label IN ('m', 'q')", "s_label IN ('a', 'm') AND s_label NOT IN ('a')",
		"s_label IN ('a', 'nope', 'm') AND rowid > 3", "s_label IN ('a', 1, 'm')",
	} {
		for _, shape := range []string{
			"SELECT rowid, s, s_label, value FROM %s WHERE %s ORDER BY rowid",
			"SELECT s, value FROM %s WHERE %s ORDER BY s DESC LIMIT 3 OFFSET 1",
			"SELECT value FROM %s WHERE %s ORDER BY value, s LIMIT 2",
			"SELECT s_label, count(*) FROM %s WHERE %s GROUP BY 1 ORDER BY 1",
		} {
			got, err := tryRows(db, fmt.Sprintf(shape, "one.v", where))
			want := rowsOf(t, db, fmt.Sprintf(shape, "nat", where))
			if err != nil || !sameRows(got, want) {
				t.Errorf("%s: cells %v (err %v), SQLite %v", fmt.Sprintf(shape, "one.v", where), got, err, want)
			}
		}
	}
}
