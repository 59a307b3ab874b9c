package vtab_test

import (
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// writeGrid writes a 4096×4096 f32 dataset "grid" (dims y, x) in 256×256
// raw chunks whose values are the row-major index.
func writeGrid(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "grid.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "grid", DType: tetcore.F32, Shape: []int64{4096, 4096},
		ChunkShape: []int64{256, 256}, DimNames: []string{"y", "x"}}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256*256*4)
	for {
		_, _, _, _, ok := w.NextChunk()
		if !ok {
			break
		}
		if err := w.WriteChunk(buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPushdownDecodesOnlyIntersectingChunks(t *testing.T) {
	t.Parallel()
	db, sess := openDB(t, map[string]string{"g": writeGrid(t)})
	cases := []struct {
		where  string
		chunks int64
		rows   int64
	}{
		{"y = 1000 AND x = 2000", 1, 1},
		{"y BETWEEN 0 AND 255", 16, 256 * 4096},
		{"y = 5000", 0, 0},
		{"x IN (3, 4000) AND y < 300", 4, 600},
		{"rowid = 4096*17 + 5", 1, 1},
		{"y = 3 AND x >= 4000.5", 1, 95},
		{"y_nope IS NULL", 256, 4096 * 4096},
	}
	for _, tc := range cases {
		q := "SELECT count(*) FROM g.grid WHERE " + tc.where
		if tc.where == "y_nope IS NULL" {
			q = "SELECT count(*) FROM g.grid"
		}
		got := rowsOf(t, db, q)
		scans := sess.TakeScans()
		if len(scans) != 1 {
			t.Fatalf("%s: %d scans recorded", q, len(scans))
		}
		s := scans[0]
		if s.ChunksDecoded != tc.chunks || s.ChunksTotal != 256 || s.Rows != tc.rows {
			t.Errorf("%s: decoded %d/%d chunks, %d rows; want %d chunks, %d rows (result %v)",
				q, s.ChunksDecoded, s.ChunksTotal, s.Rows, tc.chunks, tc.rows, got)
		}
	}
}
