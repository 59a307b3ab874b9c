package vtab_test

import (
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

var benchGrids sync.Map // chunk size → path

// gridForBench writes a 4096×4096 f32 grid in chunk×chunk raw chunks
// once per process into a temporary directory.
func gridForBench(b *testing.B, chunk int64) string {
	if p, ok := benchGrids.Load(chunk); ok {
		return p.(string)
	}
	dir, err := os.MkdirTemp("", "tetsql-bench")
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "grid.tet")
	w, _ := tetcore.Create(path)
	w.AddDataset(tetcore.DatasetSpec{Name: "grid", DType: tetcore.F32, Shape: []int64{4096, 4096},
		ChunkShape: []int64{chunk, chunk}, DimNames: []string{"y", "x"}})
	buf := make([]byte, chunk*chunk*4)
	for i := int64(0); i < chunk*chunk; i++ {
		v := float32(math.Sin(float64(i)/97)*20 + float64(i%13))
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
	}
	for {
		if _, _, _, _, ok := w.NextChunk(); !ok {
			break
		}
		w.WriteChunk(buf)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	benchGrids.Store(chunk, path)
	return path
}

func benchQuery(b *testing.B, db *sql.DB, q string, rows int64) {
	b.Helper()
	b.ReportAllocs()
	b.SetBytes(rows * 4)
	for b.Loop() {
		var v sql.NullFloat64
		if err := db.QueryRow(q).Scan(&v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFullScanSum sums all 16M cells through SQLite.
func BenchmarkFullScanSum(b *testing.B) {
	db, _ := openDB(b, map[string]string{"g": gridForBench(b, 256)})
	benchQuery(b, db, "SELECT sum(value) FROM g.grid", 4096*4096)
}

// BenchmarkPointQuery reads one cell; its cost must not depend on the
// number of chunks.
func BenchmarkPointQuery(b *testing.B) {
	for _, chunk := range []int64{256, 16} { // 256 and 65,536 chunks
		b.Run(fmt.Sprintf("chunks=%d", (4096/chunk)*(4096/chunk)), func(b *testing.B) {
			db, _ := openDB(b, map[string]string{"g": gridForBench(b, chunk)})
			benchQuery(b, db, "SELECT value FROM g.grid WHERE y = 1000 AND x = 2000", 1)
		})
	}
}

// BenchmarkRowSlab reads one row of 4096 cells (16 chunks).
func BenchmarkRowSlab(b *testing.B) {
	db, _ := openDB(b, map[string]string{"g": gridForBench(b, 256)})
	benchQuery(b, db, "SELECT sum(value) FROM g.grid WHERE y = 1000", 4096)
}

// BenchmarkAggFullGrid reduces all 16M cells in Go: compare with
// BenchmarkFullScanSum (the same sum through SQLite rows).
func BenchmarkAggFullGrid(b *testing.B) {
	db, _ := openDB(b, map[string]string{"g": gridForBench(b, 256)})
	b.ReportAllocs()
	b.SetBytes(4096 * 4096 * 4)
	for b.Loop() {
		var sum, mean, min, max, std float64
		if err := db.QueryRow("SELECT sum, mean, min, max, std FROM g.grid_agg").Scan(&sum, &mean, &min, &max, &std); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAggGroupedRows groups the grid by its first axis (4096 rows).
func BenchmarkAggGroupedRows(b *testing.B) {
	db, _ := openDB(b, map[string]string{"g": gridForBench(b, 256)})
	b.ReportAllocs()
	b.SetBytes(4096 * 4096 * 4)
	for b.Loop() {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM g.grid_agg('y')").Scan(&n); err != nil || n != 4096 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkScanVsNative compares sum(value) over a cells table with the
// same query over a native SQLite table holding the same 4M values, in
// the same process and engine.
func BenchmarkScanVsNative(b *testing.B) {
	path := filepath.Join(b.TempDir(), "g2.tet")
	w, _ := tetcore.Create(path)
	w.AddDataset(tetcore.DatasetSpec{Name: "g", DType: tetcore.F32, Shape: []int64{2048, 2048},
		ChunkShape: []int64{256, 256}, DimNames: []string{"y", "x"}})
	buf := make([]byte, 256*256*4)
	for i := 0; i < 256*256; i++ {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(float32(i%1000)/8))
	}
	for {
		if _, _, _, _, ok := w.NextChunk(); !ok {
			break
		}
		w.WriteChunk(buf)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	db, _ := openDB(b, map[string]string{"f": path})
	if _, err := db.Exec("CREATE TEMP TABLE native(value REAL)"); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO native SELECT value FROM f.g"); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, q string }{
		{"cells", "SELECT sum(value) FROM f.g"},
		{"native", "SELECT sum(value) FROM native"},
		{"cells-count", "SELECT count(*) FROM f.g"},
		{"native-count", "SELECT count(*) FROM native WHERE value IS NOT NULL"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(2048 * 2048 * 4)
			for b.Loop() {
				var s float64
				if err := db.QueryRow(tc.q).Scan(&s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAggZstdCache reduces a zstd grid of 64 chunks (16 MiB
// decoded) without a chunk cache and with one that holds it all: the
// aggregate reads through the cache, so repeated folds decode nothing.
func BenchmarkAggZstdCache(b *testing.B) {
	path := filepath.Join(b.TempDir(), "z.tet")
	w, _ := tetcore.Create(path)
	w.AddDataset(tetcore.DatasetSpec{Name: "g", DType: tetcore.F32, Shape: []int64{2048, 2048},
		ChunkShape: []int64{256, 256}, DimNames: []string{"y", "x"}, Codec: tetcore.CodecZstd})
	buf := make([]byte, 256*256*4)
	for i := 0; i < 256*256; i++ {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(float32(math.Sin(float64(i)/97)*20)))
	}
	for {
		if _, _, _, _, ok := w.NextChunk(); !ok {
			break
		}
		w.WriteChunk(buf)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	for _, budget := range []int64{0, 64 << 20} {
		b.Run(fmt.Sprintf("cache=%dMiB", budget>>20), func(b *testing.B) {
			db, sess := openDB(b, map[string]string{"z": path})
			h, err := sess.Registry.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			h.Source().SetCacheBudget(budget)
			b.ReportAllocs()
			b.SetBytes(2048 * 2048 * 4)
			for b.Loop() {
				var sum float64
				if err := db.QueryRow("SELECT sum FROM z.g_agg").Scan(&sum); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cubeForBench writes a days×181×360 f32 cube in 30-day raw chunks (the
// ERA5-like layout of issue 15, fewer days) once per process.
func cubeForBench(b *testing.B, days int64) string {
	key := -days
	if p, ok := benchGrids.Load(key); ok {
		return p.(string)
	}
	dir, err := os.MkdirTemp("", "tetsql-bench")
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "cube.tet")
	w, _ := tetcore.Create(path)
	w.AddDataset(tetcore.DatasetSpec{Name: "t2m", DType: tetcore.F32, Shape: []int64{days, 181, 360},
		ChunkShape: []int64{30, 181, 360}, DimNames: []string{"time", "lat", "lon"}})
	buf := make([]byte, 30*181*360*4)
	for i := int64(0); i < 30*181*360; i++ {
		v := float32(250 + 40*math.Sin(float64(i%65160)/5000) + float64(i%17)/3)
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
	}
	for {
		_, _, _, ext, ok := w.NextChunk()
		if !ok {
			break
		}
		if err := w.WriteChunk(buf[:ext[0]*ext[1]*ext[2]*4]); err != nil { // edge chunks are shorter
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	benchGrids.Store(key, path)
	return path
}

// BenchmarkAggMedianDay is the median of one day's map (65,160 values
// of a 30-day chunk), then its 0.99 quantile and argmax beside it.
func BenchmarkAggMedianDay(b *testing.B) {
	db, _ := openDB(b, map[string]string{"c": cubeForBench(b, 60)})
	for _, q := range []string{
		"SELECT median FROM c.t2m_agg WHERE time = 40",
		"SELECT median + quantile FROM c.t2m_agg('', 0.99) WHERE time = 40",
		"SELECT argmax FROM c.t2m_agg WHERE time = 40",
		"SELECT mean FROM c.t2m_agg WHERE time = 40",
	} {
		b.Run(strings.Fields(q)[1], func(b *testing.B) {
			benchQuery(b, db, q, 181*360)
		})
	}
	b.Run("whole-cube", func(b *testing.B) { // 3.9M values
		benchQuery(b, db, "SELECT median FROM c.t2m_agg", 60*181*360)
	})
	b.Run("daily", func(b *testing.B) { // 60 groups
		benchQuery(b, db, "SELECT max(median) FROM c.t2m_agg('time')", 60*181*360)
	})
}

// BenchmarkAggCoarsen groups 60 days by 5-day blocks (and 4×4 boxes),
// beside the plain grouping by time for comparison.
func BenchmarkAggCoarsen(b *testing.B) {
	db, _ := openDB(b, map[string]string{"c": cubeForBench(b, 60)})
	for _, tc := range []struct {
		by   string
		rows int
	}{{"time", 60}, {"time/5", 12}, {"time/5,lat/4,lon/4", 12 * 46 * 90}, {"time/5,lat,lon", 12 * 181 * 360}} {
		b.Run(strings.ReplaceAll(tc.by, "/", "÷"), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(60 * 181 * 360 * 4)
			for b.Loop() {
				var n int
				if err := db.QueryRow("SELECT count(*) FROM c.t2m_agg('" + tc.by + "')").Scan(&n); err != nil || n != tc.rows {
					b.Fatal(n, err)
				}
			}
		})
	}
}
