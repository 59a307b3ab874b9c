package vtab

import (
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/tetcore"
)

// BenchmarkCursorRows steps a cells cursor over a 1024×1024 f32 dataset
// and reads the value column's element, without SQLite: the cursor's own
// per-row cost (Column adds only the sqlite3_result_* call). Neither
// allocates.
func BenchmarkCursorRows(b *testing.B) {
	path := filepath.Join(b.TempDir(), "c.tet")
	w, _ := tetcore.Create(path)
	w.AddDataset(tetcore.DatasetSpec{Name: "g", DType: tetcore.F32, Shape: []int64{1024, 1024}, ChunkShape: []int64{256, 256}})
	buf := make([]byte, 256*256*4)
	for {
		if _, _, _, _, ok := w.NextChunk(); !ok {
			break
		}
		w.WriteChunk(buf)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	for _, col := range []string{"next", "next+value"} {
		b.Run(col, func(b *testing.B) {
			sess := NewSession(scan.NewRegistry([]array.Format{tetcore.Format}))
			tb, err := connect(fakeCtx(), []string{"tet", "main", "g", path, "cells", "g"}, &connState{session: sess})
			if err != nil {
				b.Fatal(err)
			}
			defer tb.Disconnect()
			b.ReportAllocs()
			b.SetBytes(1024 * 1024 * 4)
			for b.Loop() {
				cur, _ := tb.Open()
				if err := cur.Filter(0, "", nil); err != nil {
					b.Fatal(err)
				}
				n := 0
				for !cur.Eof() {
					if col != "next" {
						cur.(*cellsCursor).s.Value()
					}
					cur.Next()
					n++
				}
				cur.Close()
				if n != 1024*1024 {
					b.Fatalf("%d rows", n)
				}
			}
		})
	}
}
