package vtab_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev2_manyTextLabelIn: "label IN (SELECT an INTEGER column)" on a
// TEXT label of a many-file cells table gives SQLite's answer, as on one
// file's cells table (TestLabelIn_affinity). manyTable.InListColumn
// answers false for the inner columns of a cells table, so SQLite runs
// the IN once per value and re-checks each value under the column's
// TEXT affinity: the labels '01' and '02' (equal to 1 and 2 under the
// IN's numeric comparison) are dropped.
func TestRev2_manyTextLabelIn(t *testing.T) {
	dir := t.TempDir()
	for f := range 2 {
		sub := filepath.Join(dir, fmt.Sprintf("f=%d", f))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{6}, ChunkShape: []int64{2}, Codec: tetcore.CodecRaw,
			DimNames: []string{"m"}, Labels: [][]string{{"01", "02", "11", "x", "y", "z"}}}
		writeTet(t, filepath.Join(sub, "a.tet"), spec, func(k int) float32 { return float32(10*f + k) })
	}
	db, _ := openDB(t, nil)
	mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE main.m USING tet_many('%s/*/a.tet', 'v')", dir))
	mustExec(t, db, "CREATE TABLE nat AS SELECT m_label, value FROM m")
	if got := rowsOf(t, db, "SELECT count(*), typeof(m_label) FROM nat"); !sameRows(got, []string{"12|text"}) {
		t.Fatalf("native copy: %v", got)
	}
	mustExec(t, db, "CREATE TABLE nums(x INTEGER)")
	mustExec(t, db, "INSERT INTO nums VALUES (1), (2), (11)")
	for _, where := range []string{
		"m_label IN (SELECT x FROM nums)",
		"m_label IN ('01', 'z')",
		"m_label IN (SELECT x FROM nums) AND f IN ('0', '1')",
	} {
		got, err := tryRows(db, "SELECT count(*), sum(value) FROM m WHERE "+where)
		want := rowsOf(t, db, "SELECT count(*), sum(value) FROM (SELECT m_label, value, CAST(value >= 10 AS TEXT) AS f FROM nat) WHERE "+where)
		if err != nil || !sameRows(got, want) {
			t.Errorf("%s: many %v (err %v), SQLite %v", where, got, err, want)
		}
	}
}
