package vtab_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev3_aggJoinSixteenBounds: v_agg('a') joined on its grouped dim a,
// with 15 or 16 bounds in WHERE. The plan with the join term usable
// consumes 17 or more terms (bounds, by, join term), and BestIndex now
// fails the whole statement on that first call, although the plan with
// the join term left to SQLite (v_agg as the outer loop, "g.a = n.x"
// tested on its rows, where the grouped a holds its value) answers
// exactly. SQLITE_CONSTRAINT from that first call does not make SQLite
// try the others (it explores other combinations only after a usable
// first plan), so the statement fails cleanly: a documented limit.
func TestRev3_aggJoinSixteenBounds(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{4, 6}, ChunkShape: []int64{2, 3}, Codec: tetcore.CodecRaw,
		DimNames: []string{"a", "b"}, Labels: [][]string{{"p", "q", "r", "s"}, nil}}
	writeTet(t, p, spec, func(k int) float32 { return float32(k) })
	db, _ := openDB(t, map[string]string{"one": p})
	mustExec(t, db, "CREATE TABLE nat AS SELECT a, b, a_label, value FROM one.v")
	mustExec(t, db, "CREATE TABLE ints(x INTEGER)")
	mustExec(t, db, "INSERT INTO ints VALUES (1), (3), (4)")
	var bounds []string
	for k := range 16 {
		bounds = append(bounds, fmt.Sprintf("g.a > -%d", k+1))
	}
	for _, n := range []int{0, 14, 15, 16} {
		where := strings.Join(append([]string{"1"}, bounds[:n]...), " AND ")
		got, err := tryRows(db, "SELECT n.x, g.a, g.count, g.sum FROM ints n JOIN one.v_agg('a') g ON g.a = n.x WHERE "+where+" ORDER BY 1")
		want := rowsOf(t, db, "SELECT n.x, g.a, count(value), sum(value) FROM ints n JOIN nat g ON g.a = n.x WHERE "+where+" GROUP BY n.x ORDER BY 1")
		if n >= 15 && refusedTooMany(err) {
			// Documented limit: SQLite explores no other plan once the one
			// with every term usable is refused, so the statement fails
			// (never answers wrong).
			continue
		}
		if err != nil || !sameRows(got, want) {
			t.Errorf("%d bounds: v_agg %v (err %v), SQLite %v", n, got, err, want)
		}
	}
}
