package tetsql_test

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if bigDir != "" {
		os.RemoveAll(bigDir)
	}
	os.Exit(code)
}

// grid declares a 2-d f32 dataset whose value at (x, y) is its rowid,
// x*shape[1]+y (exact in f32 below 2^24 elements), optionally labelled
// "x0000"… and "y0000"… along the axes x and y.
type grid struct {
	name          string
	shape, chunks [2]int64
	codec         tetcore.Codec
	labels        bool
}

// writeGrids writes the datasets to path.
func writeGrids(t testing.TB, path string, grids ...grid) {
	t.Helper()
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range grids {
		spec := tetcore.DatasetSpec{Name: g.name, DType: tetcore.F32, Shape: g.shape[:], ChunkShape: g.chunks[:],
			Codec: g.codec, DimNames: []string{"x", "y"}}
		if g.labels {
			spec.Labels = [][]string{gridLabels("x", g.shape[0]), gridLabels("y", g.shape[1])}
		}
		if err := w.AddDataset(spec); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range grids {
		n := g.shape[0] * g.shape[1]
		data := make([]byte, 4*n)
		for i := range n {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i)))
		}
		if err := w.WriteDataset(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func gridLabels(prefix string, n int64) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%04d", prefix, i)
	}
	return out
}

var (
	bigOnce sync.Once
	bigDir  string
	bigErr  error
)

// bigFile returns a file shared by the tests of this package (removed by
// TestMain) whose full scans take seconds: "big", 4096×4096 raw f32 in
// 1024×1024 chunks (64 MiB, 16.8 M rows), and "z", 2048×2048 zstd f32 in
// 1024×1024 chunks of 4 MiB.
func bigFile(t testing.TB) string {
	t.Helper()
	bigOnce.Do(func() {
		if bigDir, bigErr = os.MkdirTemp("", "tetsql-big-"); bigErr != nil {
			return
		}
		writeGrids(t, filepath.Join(bigDir, "big.tet"),
			grid{name: "big", shape: [2]int64{4096, 4096}, chunks: [2]int64{1024, 1024}, codec: tetcore.CodecRaw},
			grid{name: "z", shape: [2]int64{2048, 2048}, chunks: [2]int64{1024, 1024}, codec: tetcore.CodecZstd})
	})
	if bigErr != nil {
		t.Fatal(bigErr)
	}
	return filepath.Join(bigDir, "big.tet")
}

// openConn opens dsn with the tetsql driver and takes one connection
// from its pool; both are closed when the test ends.
func openConn(t testing.TB, dsn string) (*sql.DB, *sql.Conn) {
	t.Helper()
	db, err := sql.Open("tetsql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return db, conn
}
