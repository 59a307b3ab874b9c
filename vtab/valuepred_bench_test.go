package vtab_test

import (
	"database/sql"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

var fieldOnce struct {
	sync.Once
	path string
}

// fieldForBench writes once per process a 16×100000 f32 field (1.6 M
// elements, one chunk per row) whose rows all span about the same range,
// so that min/max skip little and the per-element filter does the work.
func fieldForBench(b *testing.B) string {
	fieldOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tetsql-bench")
		if err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(dir, "field.tet")
		w, _ := tetcore.Create(path)
		w.AddDataset(tetcore.DatasetSpec{Name: "t", DType: tetcore.F32, Shape: []int64{16, 100000},
			ChunkShape: []int64{1, 100000}, DimNames: []string{"time", "x"}})
		buf := make([]byte, 16*100000*4)
		for i := 0; i < 16*100000; i++ {
			v := float32(280 + 20*math.Sin(float64(i)/97) + 7*math.Sin(float64(i)/13.3))
			binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
		}
		if err := w.WriteDataset(buf); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		fieldOnce.path = path
	})
	return fieldOnce.path
}

// BenchmarkValuePredicate: count(*) of the elements above a threshold
// (about 3% of them pass; 305 passes none: every chunk is skipped by its
// min/max after the first run), on the cells table and on _agg.
func BenchmarkValuePredicate(b *testing.B) {
	db, _ := openDB(b, map[string]string{"f": fieldForBench(b)})
	for _, bc := range []struct{ name, q string }{
		{"cells_count_gt_300", "SELECT count(*) FROM f.t WHERE value > 300"},
		{"cells_count_gt_330", "SELECT count(*) FROM f.t WHERE value > 330"},
		{"cells_group_by_time_gt_300", "SELECT sum(n) FROM (SELECT time, count(*) AS n FROM f.t WHERE value > 300 GROUP BY time)"},
		{"agg_count_gt_300", "SELECT count FROM f.t_agg WHERE value > 300"},
		{"agg_by_time_gt_300", "SELECT sum(count) FROM f.t_agg('time') WHERE value > 300"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var n sql.NullInt64
			if err := db.QueryRow(bc.q).Scan(&n); err != nil {
				b.Skipf("%s: %v", bc.q, err)
			}
			b.ReportAllocs()
			b.SetBytes(16 * 100000 * 4)
			for b.Loop() {
				if err := db.QueryRow(bc.q).Scan(&n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n.Int64), "rows")
		})
	}
}
