package vtab_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev2_textLabelInLimit: "label IN (…) ORDER BY value LIMIT k" on a
// TEXT label keeps SQLite's answer. Since 5d3d958 the cells table scans
// the hull of the listed labels and leaves the IN for SQLite to re-check
// (not omitted), but still consumes ORDER BY value and LIMIT/OFFSET
// (top-k): it returns the k smallest values of the hull, and SQLite then
// drops those of unlisted labels between the listed ones, so rows go
// missing ("b_label IN ('01', '10') ORDER BY value LIMIT 2" gives one row
// of two). f853259 answered these right. Cause: inHull turns the list
// into dim constraints, so cellsCursor.labelsExact finds no label term
// and startTopK emits only LIMIT+OFFSET rows of the hull; a Filter that
// applied an IN hull must count as not exact (emit page by page, as for
// a label term the plan does not honour).
func TestRev2_textLabelInLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{4, 6}, ChunkShape: []int64{2, 3}, Codec: tetcore.CodecRaw,
		DimNames: []string{"a", "b"}, Labels: [][]string{{"p", "q", "r", "s"}, {"01", "1", "x", "X", "1.0", "10"}}}
	writeTet(t, p, spec, func(k int) float32 { return float32(k) })
	db, _ := openDB(t, map[string]string{"one": p})
	mustExec(t, db, "CREATE TABLE nat AS SELECT a, b, a_label, b_label, value FROM one.v")
	mustExec(t, db, "CREATE TABLE ints(x INTEGER)")
	mustExec(t, db, "INSERT INTO ints VALUES (1), (10)")
	for _, w := range []string{
		"b_label IN ('01', '10') ORDER BY value LIMIT 2",
		"b_label IN ('01', '10') ORDER BY value LIMIT 2 OFFSET 1",
		"b_label IN ('01', '10') ORDER BY value DESC LIMIT 3",
		"b_label IN ('1', '10') ORDER BY a, b LIMIT 2",
		"b_label IN ('1', '10') LIMIT 2",
		"b_label IN ('1', '10') AND a >= 1 ORDER BY value DESC LIMIT 4",
		"b_label IN (SELECT x FROM ints) ORDER BY value LIMIT 2 OFFSET 1", // no TEXT value: no hull, the whole axis
	} {
		q := "SELECT count(*), group_concat(value) FROM (SELECT a, b, value FROM %s WHERE " + w + ")"
		got, err := tryRows(db, strings.Replace(q, "%s", "one.v", 1))
		want := rowsOf(t, db, strings.Replace(q, "%s", "nat", 1))
		if err != nil || !sameRows(got, want) {
			t.Errorf("%s: cells %v (err %v), SQLite %v", w, got, err, want)
		}
	}
}
