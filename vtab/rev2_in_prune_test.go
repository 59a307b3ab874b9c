package vtab_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev2_textLabelInPrunes: an IN list of a few names on a long TEXT
// label axis reads the chunks of those names, as the same IN on the dim
// does. Since 5d3d958 the cells table reads the list whole and narrows
// the axis to the hull of the listed labels (cells_in.go), so
// "station_label IN ('s0001', 's0998')" reads every chunk between them
// and hands SQLite 3992 rows: 100 chunks of 100 instead of 2 (f853259
// read 2). Exactness can stay with SQLite while the scan visits only
// the listed indices (a union of intervals).
func TestRev2_textLabelInPrunes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("s%04d", i)
	}
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{1000, 4}, ChunkShape: []int64{10, 4}, Codec: tetcore.CodecZstd,
		DimNames: []string{"station", "t"}, Labels: [][]string{names, nil}}
	writeTet(t, p, spec, func(k int) float32 { return float32(k) })
	db, sess := openDB(t, map[string]string{"one": p})
	for _, where := range []string{
		"station IN (1, 998)",
		"station_label IN ('s0001', 's0998')",
		"station_label IN (SELECT 's0001' UNION SELECT 's0998')",
	} {
		sess.TakeScans()
		got := rowsOf(t, db, "SELECT count(*), sum(value) FROM one.v WHERE "+where)
		if want := []string{"8|15996"}; !sameRows(got, want) {
			t.Errorf("%s: %v, want %v", where, got, want)
		}
		var chunks int64
		for _, sc := range sess.TakeScans() {
			chunks += sc.ChunksDecoded + sc.CacheHits
		}
		if chunks > 2 {
			t.Errorf("%s: read %d chunks, want 2", where, chunks)
		}
	}
}
