package vtab_test

import (
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev3_inRunsValueTermNone: a value term no element satisfies
// ("value > 'abc'": every number sorts before TEXT; "value = NULL") is
// consumed and omitted, and makes Filter start its scan with LIMIT 0.
// With a TEXT label IN list scanned run by run, only the first run gets
// that LIMIT 0: the later runs start unlimited (nextRun) and return
// their rows, which SQLite does not re-check.
func TestRev3_inRunsValueTermNone(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{6, 2}, ChunkShape: []int64{2, 2}, Codec: tetcore.CodecRaw,
		DimNames: []string{"s", "t"}, Labels: [][]string{{"a", "b", "c", "d", "e", "f"}, nil}}
	writeTet(t, p, spec, func(k int) float32 { return float32(k) })
	db, _ := openDB(t, map[string]string{"one": p})
	mustExec(t, db, "CREATE TABLE nat AS SELECT * FROM one.v")
	for _, c := range []struct {
		where string
		args  []any
	}{
		{"s_label IN ('a', 'f') AND value > 'abc'", nil},
		{"s_label IN ('a', 'c', 'e') AND value >= 'abc'", nil},
		{"s_label IN ('a', 'f') AND value = ?", []any{nil}},
		{"s_label IN ('f', 'a') AND value > ?", []any{nil}},
	} {
		got, err := tryRows(db, "SELECT count(*), sum(value) FROM one.v WHERE "+c.where, c.args...)
		want := rowsOf(t, db, "SELECT count(*), sum(value) FROM nat WHERE "+c.where, c.args...)
		if err != nil || !sameRows(got, want) {
			t.Errorf("%s: cells %v (err %v), SQLite %v", c.where, got, err, want)
		}
	}
}
