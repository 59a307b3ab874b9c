package tetsql_test

import (
	"database/sql"
	"encoding/binary"
	"math"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/tetsql/tetsql/tetcore"
)

// writeSlabCube writes an ERA5-like f32 cube t2m(time, lat, lon) of
// nt×181×360 in zstd chunks of 30×181×360, the layout of bench/analytics.sh
// (which has nt = 730); a one-day query reads one chunk whatever nt is.
func writeSlabCube(tb testing.TB, nt int64) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "t2m.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "t2m", DType: tetcore.F32, Shape: []int64{nt, 181, 360},
		ChunkShape: []int64{30, 181, 360}, Codec: tetcore.CodecZstd, DimNames: []string{"time", "lat", "lon"}}); err != nil {
		tb.Fatal(err)
	}
	data := make([]byte, nt*181*360*4)
	for i := range nt * 181 * 360 {
		v := 280 + 20*math.Sin(float64(i)*1e-3) + float64(i%97)/97
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(v)))
	}
	if err := w.WriteDataset(data); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkSlabFetch fetches one day's map (65,160 rows) through
// database/sql, warm: the statement ran once before, so with the default
// decoded-chunk cache the chunk is not decoded again. Scan into typed
// destinations is the caller's cost and is part of what is measured, as
// a program would do it.
func BenchmarkSlabFetch(b *testing.B) {
	path := writeSlabCube(b, 120)
	for _, tc := range []struct{ name, opts string }{{"default", ""}, {"nocache", "?cache_budget=0"}} {
		b.Run(tc.name, func(b *testing.B) {
			db, err := sql.Open("tetsql", path+tc.opts)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			fetch := func() {
				rows, err := db.Query("SELECT lat, lon, value FROM t2m WHERE time = 100")
				if err != nil {
					b.Fatal(err)
				}
				var lat, lon int64
				var v float64
				n := 0
				for rows.Next() {
					if err := rows.Scan(&lat, &lon, &v); err != nil {
						b.Fatal(err)
					}
					n++
				}
				if err := rows.Err(); err != nil || n != 181*360 {
					b.Fatalf("%d rows, %v", n, err)
				}
				rows.Close()
			}
			fetch()
			b.ReportAllocs()
			c0 := cpuTime()
			for b.Loop() {
				fetch()
			}
			// Process CPU time per fetch: steadier than wall time on a
			// shared machine (decoding, the query and GC all count).
			b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
