package vtab_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// TestLabelIn_affinity: "label IN (…)" on a TEXT label column compares
// under the IN's affinity: a literal list's values as TEXT ('01' is not
// 1), a subquery over an INTEGER column numerically ('01' is 1). The
// cells table gives SQLite's answer either way (it reads the list whole
// and lets SQLite re-check the IN whole), with the chunks of its TEXT
// values only; the aggregate table, which cannot tell the two apart,
// refuses a number whose answer depends on it.
func TestLabelIn_affinity(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{6}, ChunkShape: []int64{2}, Codec: tetcore.CodecRaw,
		DimNames: []string{"m"}, Labels: [][]string{{"01", "02", "11", "x", "y", "z"}}}
	writeTet(t, p, spec, func(k int) float32 { return float32(k) })
	db, sess := openDB(t, map[string]string{"one": p})
	mustExec(t, db, "CREATE TABLE nums(x INTEGER)")
	mustExec(t, db, "INSERT INTO nums VALUES (1), (2), (11)")
	mustExec(t, db, "CREATE TABLE nat AS SELECT m_label, value FROM one.v")
	for _, where := range []string{
		"m_label IN (SELECT x FROM nums)",
		"m_label IN (1, 2, 11)",
		"m_label IN ('01', 'z')",
		"m_label IN (SELECT CAST(x AS TEXT) FROM nums)",
		"m_label IN ('q')",
	} {
		got := rowsOf(t, db, "SELECT count(*), sum(value) FROM one.v WHERE "+where)
		want := rowsOf(t, db, "SELECT count(*), sum(value) FROM nat WHERE "+where)
		if !sameRows(got, want) {
			t.Errorf("%s: cells %v, SQLite %v", where, got, want)
		}
	}
	// TEXT values prune: '01' and 'z' are in chunks 0 and 2 of 3; the hull
	// reads all three, one value reads one.
	sess.TakeScans()
	rowsOf(t, db, "SELECT value FROM one.v WHERE m_label IN ('x')")
	if sc := sess.TakeScans(); len(sc) != 1 || sc[0].ChunksDecoded+sc[0].CacheHits > 1 {
		t.Errorf("IN ('x') read %+v, want one chunk", sc)
	}
	_, err := db.Exec("SELECT count FROM one.v_agg WHERE m_label IN (SELECT x FROM nums)")
	if !errors.Is(err, vtab.ErrAmbiguousLabel) && (err == nil || !strings.Contains(err.Error(), "type affinity")) {
		t.Errorf("aggregate over an ambiguous IN: %v, want the ambiguity refused", err)
	}
	if got := rowsOf(t, db, "SELECT count FROM one.v_agg WHERE m_label IN ('01', 'z')"); !sameRows(got, []string{"2"}) {
		t.Errorf("aggregate over TEXT values: %v, want 2", got)
	}
}
