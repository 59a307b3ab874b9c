package vtab_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// SQLite honours a virtual table's omit flag only for the constraints
// given argvIndex 1 to 16 (where.c: "iTerm<16 && pUsage[i].omit"), and
// hands an IN list over whole (sqlite3_vtab_in) only for the first 32
// constraints. An _agg table's terms on dims and labels must be consumed:
// its output rows hold NULL on an axis that is neither grouped nor pinned,
// so a term SQLite re-checks there removes the row.

// TestRev2_aggSeventeenTerms: the 17th consumed term of an _agg query
// would be re-checked by SQLite on the output row and filter it out: the
// table refuses such a plan (a clear error), and answers with fewer.
func TestRev2_aggSeventeenTerms(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{4, 6}, ChunkShape: []int64{2, 3}, Codec: tetcore.CodecRaw,
		DimNames: []string{"a", "b"}, Labels: [][]string{{"p", "q", "r", "s"}, {"01", "1", "x", "X", "1.0", "10"}}}
	writeTet(t, p, spec, func(k int) float32 { return float32(k) })
	db, _ := openDB(t, map[string]string{"one": p})
	mustExec(t, db, "CREATE TABLE nat AS SELECT a, b, a_label, b_label, value FROM one.v")
	// Sixteen consumed terms that hold everywhere (a generated query's
	// bounds, say) and one more term.
	var ex []string
	for k := range 16 {
		ex = append(ex, fmt.Sprintf("b > -%d", k+1))
	}
	for _, last := range []string{"a >= 1", "a IN (0, 1)", "a_label IN ('p', 'q')", "b_label IN ('x', 'X')", "b BETWEEN 1 AND 4"} {
		for _, n := range []int{15, 16} {
			where := strings.Join(append(ex[:n:n], last), " AND ")
			got, err := tryRows(db, "SELECT count, sum FROM one.v_agg WHERE "+where)
			want := rowsOf(t, db, "SELECT count(value), sum(value) FROM nat WHERE "+where)
			if refusedTooMany(err) {
				continue // documented: past 16 consumed terms the plan is refused, never answered wrong
			}
			if err != nil || !sameRows(got, want) {
				t.Errorf("%d bounds AND %s: v_agg %v (err %v), SQLite %v", n, last, got, err, want)
			}
		}
	}
}

// TestRev2_inPastSlot32: an IN on a TEXT label column of a cells table
// and on a dim of an _agg table, as the 34th constraint: SQLite then runs
// the IN once per value, which the tables do not expect.
func TestRev2_inPastSlot32(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{4, 6}, ChunkShape: []int64{2, 3}, Codec: tetcore.CodecRaw,
		DimNames: []string{"a", "b"}, Labels: [][]string{{"p", "q", "r", "s"}, {"01", "1", "x", "X", "1.0", "10"}}}
	writeTet(t, p, spec, func(k int) float32 { return float32(k) })
	db, _ := openDB(t, map[string]string{"one": p})
	mustExec(t, db, "CREATE TABLE nat AS SELECT a, b, a_label, b_label, value FROM one.v")
	mustExec(t, db, "CREATE TABLE ints(x INTEGER)")
	mustExec(t, db, "INSERT INTO ints VALUES (1), (10)")
	mustExec(t, db, "CREATE TABLE anys(v)")
	mustExec(t, db, "INSERT INTO anys VALUES (1), ('1')")
	var pad []string
	for k := range 33 {
		pad = append(pad, fmt.Sprintf("value > -%d", k+1))
	}
	for _, in := range []string{"b_label IN (SELECT x FROM ints)", "b_label IN (SELECT v FROM anys)"} {
		where := strings.Join(append(pad, in), " AND ")
		q := "SELECT count(*), sum(value) FROM %s WHERE " + where
		got, err := tryRows(db, fmt.Sprintf(q, "one.v"))
		want := rowsOf(t, db, fmt.Sprintf(q, "nat"))
		if err != nil || !sameRows(got, want) {
			t.Errorf("cells, 33 terms AND %s: %v (err %v), SQLite %v", in, got, err, want)
		}
	}
}

// TestRev2_manyAggSeventeenTerms: the same limit on a many-file _agg,
// whose terms on file and hive columns are consumed: with sixteen
// consumed bounds before it, "month IN ('01', '02')" is re-checked on
// the merged row, whose month is NULL (the files differ), and the row
// is dropped.
func TestRev2_manyAggSeventeenTerms(t *testing.T) {
	dir := t.TempDir()
	paths := manyYear(t, dir)
	db, sess := openDB(t, nil)
	nativeUnion(t, db, sess, dir, paths)
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE main.m_agg USING tet_many('%s/**/*.tet', 't2m', 'kind=agg')`, dir))
	var bounds []string
	for k := range 16 {
		bounds = append(bounds, fmt.Sprintf("lat > -%d", k+1))
	}
	for _, n := range []int{15, 16} {
		where := strings.Join(append(bounds[:n:n], "month IN ('01', '02')"), " AND ")
		got, err := tryRows(db, "SELECT count, sum FROM m_agg WHERE "+where)
		want := rowsOf(t, db, "SELECT count(value), sum(value) FROM native WHERE "+where)
		if refusedTooMany(err) {
			continue
		}
		if err != nil || !rev2Same(got, want) {
			t.Errorf("%d bounds AND month IN ('01', '02'): m_agg %v (err %v), native %v", n, got, err, want)
		}
	}
}

// refusedTooMany reports the documented refusal of an aggregate plan
// with more than 16 consumed terms.
func refusedTooMany(err error) bool {
	// Through the driver the session's reason; on a bare connection
	// SQLite's own, once no plan of the table is left.
	return err != nil && (strings.Contains(err.Error(), "more than 16 conditions") || strings.Contains(err.Error(), "no query solution"))
}
