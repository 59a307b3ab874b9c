package tetsql_test

import (
	"database/sql"
	"encoding/binary"
	"math"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// BenchmarkReadAheadDefault times a zstd cube of 25 chunks (250 × 91 ×
// 180 f32, chunks 10 × 91 × 180, noisy values) with read-ahead off and in
// the default configuration (automatic), with no decoded-chunk cache so
// that every query decodes as in a fresh process: a point series and a
// filtered count read every chunk, a one-day slab a single chunk (which
// never reads ahead and must not get slower). Compare with
// benchstat -col /ra.
func BenchmarkReadAheadDefault(b *testing.B) {
	path := filepath.Join(b.TempDir(), "cube.tet")
	writeCube(b, path, [3]int64{250, 91, 180}, [3]int64{10, 91, 180})
	for _, q := range []struct{ name, sql string }{
		{"point", "SELECT t, value FROM c WHERE y = 40 AND x = 10"},
		{"count", "SELECT count(*) FROM c WHERE +value > 290"},
		{"slab", "SELECT y, x, value FROM c WHERE t = 100"},
	} {
		for _, ra := range []struct{ name, opts string }{{"off", "&read_ahead=0"}, {"auto", ""}} {
			b.Run("q="+q.name+"/ra="+ra.name, func(b *testing.B) {
				db, err := sql.Open("tetsql", path+"?cache_budget=0"+ra.opts)
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				db.SetMaxOpenConns(1)
				for b.Loop() {
					rows, err := db.Query(q.sql)
					if err != nil {
						b.Fatal(err)
					}
					n := 0
					for rows.Next() {
						n++
					}
					if err := rows.Err(); err != nil || n == 0 {
						b.Fatalf("%d rows, %v", n, err)
					}
					rows.Close()
				}
			})
		}
	}
}

// writeCube writes dataset c (t, y, x), f32, zstd: 250 K to 310 K with
// noise in the low bits, so that zstd has work to do.
func writeCube(b *testing.B, path string, shape, chunk [3]int64) {
	b.Helper()
	w, err := tetcore.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	spec := tetcore.DatasetSpec{Name: "c", DType: tetcore.F32, Shape: shape[:], ChunkShape: chunk[:],
		Codec: tetcore.CodecZstd, DimNames: []string{"t", "y", "x"}}
	if err := w.AddDataset(spec); err != nil {
		b.Fatal(err)
	}
	n := shape[0] * shape[1] * shape[2]
	data := make([]byte, 4*n)
	s := uint64(1)
	for i := range n {
		s = s*6364136223846793005 + 1442695040888963407
		y := i / shape[2] % shape[1]
		v := 250 + 60*math.Sin(math.Pi*float64(y)/float64(shape[1])) + float64(s>>40)/float64(1<<24)*4
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(math.Round(v*1024)/1024)))
	}
	if err := w.WriteDataset(data); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}
