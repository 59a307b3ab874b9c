package vtab_test

import (
	"database/sql"
	"encoding/binary"
	"math"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// cubeForTopK writes a 2,073,600-element f32 cube (60×120×288, chunks of
// 6×120×288: 10 chunks) holding a smooth field plus noise, as a climate
// variable would.
func cubeForTopK(b *testing.B) string {
	path := filepath.Join(b.TempDir(), "cube.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	shape := []int64{60, 120, 288}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "t2m", DType: tetcore.F32, Shape: shape,
		ChunkShape: []int64{6, 120, 288}, DimNames: []string{"time", "lat", "lon"}}); err != nil {
		b.Fatal(err)
	}
	data := make([]byte, 4*shape[0]*shape[1]*shape[2])
	i := 0
	for t := range shape[0] {
		for y := range shape[1] {
			for x := range shape[2] {
				v := 280 + 20*math.Cos(float64(y)/40) + 5*math.Sin(float64(t)/9) + math.Sin(float64(x*7+y*13+int64(i))*0.37)
				binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(v)))
				i++
			}
		}
	}
	if err := w.WriteDataset(data); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

func topkRows(b *testing.B, db *sql.DB, q string) {
	rows, err := db.Query(q)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Close(); err != nil || n != 10 {
		b.Fatalf("%d rows, %v", n, err)
	}
}

// BenchmarkTopK: the ten hottest cells of a 2M-element cube. "first" is
// a fresh process's query (no chunk statistics: every chunk is read and
// its statistics kept), "second" the next query (chunks skipped by their
// max), "sorted" the same rows by SQLite's sort (ORDER BY +value).
func BenchmarkTopK(b *testing.B) {
	path := cubeForTopK(b)
	const q = "SELECT time, lat, lon, value FROM x.t2m ORDER BY value DESC LIMIT 10"
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			db, _ := openDB(b, map[string]string{"x": path})
			b.StartTimer()
			topkRows(b, db, q)
			b.StopTimer()
			db.Close()
			b.StartTimer()
		}
	})
	b.Run("second", func(b *testing.B) {
		db, _ := openDB(b, map[string]string{"x": path})
		topkRows(b, db, q)
		for b.Loop() {
			topkRows(b, db, q)
		}
	})
	b.Run("sorted", func(b *testing.B) {
		db, _ := openDB(b, map[string]string{"x": path})
		for b.Loop() {
			topkRows(b, db, "SELECT time, lat, lon, value FROM x.t2m ORDER BY +value DESC LIMIT 10")
		}
	})
}
