package tetsql_test

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/tetcore"
)

// writeLabelled writes a 2-d f32 dataset "g" whose x labels are xl.
func writeLabelled(t *testing.T, path string, xl []string, codec tetcore.Codec) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	nx, ny := int64(len(xl)), int64(40)
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "g", DType: tetcore.F32, Shape: []int64{nx, ny},
		ChunkShape: []int64{2, 10}, Codec: codec, DimNames: []string{"x", "y"}, Labels: [][]string{xl, nil}}); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 4*nx*ny)
	for i := range nx * ny {
		v := float32(i%97) / 7
		if i%31 == 0 {
			v = float32(math.NaN())
		}
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	if err := w.WriteDataset(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// sameExport asserts that the export of q holds SQLite's rows and
// reports whether the fast path took it.
func sameExport(t *testing.T, db *sql.DB, q string) bool {
	t.Helper()
	want := pqQueryAll(t, db, q)
	b, n, took, err := exportQuery(t, db, q, tetsql.ParquetOptions{})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if n != int64(len(want)) || n == 0 {
		t.Fatalf("%s: %d rows, SQLite %d", q, n, len(want))
	}
	_, rows := readParquet(t, b)
	for r, row := range rows {
		for c, v := range row {
			w := want[r][c]
			if i, ok := w.(int64); ok && v.Kind() == parquet.Double { // an INTEGER in a REAL column
				w = float64(i)
			}
			if !sameValue(v, w) && !(w != nil && isNaN(w) && v.IsNull()) {
				t.Fatalf("%s: row %d col %d: %v, want %v", q, r, c, v, w)
			}
		}
	}
	return took
}

// TestExportGlobMixedLabels: files of one glob whose numeric labels are
// INTEGER in one and REAL in the others export as REAL, as SQLite
// returns them.
func TestExportGlobMixedLabels(t *testing.T) {
	dir := t.TempDir()
	writeLabelled(t, filepath.Join(dir, "a.tet"), []string{"0.5", "1.5", "2.5", "3.5"}, tetcore.CodecRaw)
	writeLabelled(t, filepath.Join(dir, "b.tet"), []string{"10", "11", "12"}, tetcore.CodecRaw)
	writeLabelled(t, filepath.Join(dir, "c.tet"), []string{"20.25", "21.25"}, tetcore.CodecZstd)
	db, err := sql.Open("tetsql", filepath.Join(dir, "*.tet"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"SELECT * FROM g", "SELECT x_label, value FROM g WHERE y < 13"} {
		if !sameExport(t, db, q) {
			t.Errorf("%s: not exported from the scans", q)
		}
	}
}

// TestExportGlobSkip: with on_error=skip a file damaged half way is left
// out from the damage on, exactly as SQLite's rows leave it out.
func TestExportGlobSkip(t *testing.T) {
	dir := t.TempDir()
	xl := []string{"p", "q", "r", "s", "t", "u"}
	for i := range 3 {
		writeLabelled(t, filepath.Join(dir, fmt.Sprintf("f%d.tet", i)), xl, tetcore.CodecZstd)
	}
	bad := filepath.Join(dir, "f1.tet")
	orig, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	pattern := filepath.Join(dir, "*.tet") + "?on_error=skip"
	for off := len(orig) / 3; off < len(orig)-64; off += 7 {
		b := append([]byte(nil), orig...)
		for k := range 8 {
			b[off+k] ^= 0x5a
		}
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		one, err := sql.Open("tetsql", bad)
		if err != nil {
			continue
		}
		n, rerr := 0, error(nil)
		if rows, err := one.Query("SELECT value FROM g"); err == nil {
			for rows.Next() {
				n++
			}
			rerr = rows.Err()
			rows.Close()
		}
		one.Close()
		if rerr == nil || n == 0 {
			continue
		}
		db, err := sql.Open("tetsql", pattern)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if !sameExport(t, db, "SELECT file, x, y, value FROM g") {
			t.Error("not exported from the scans")
		}
		return
	}
	t.Skip("no damage found that fails mid-scan")
}

// TestExportGlobTruncatedWhileExporting: a raw file cut short while a
// glob export reads it fails the export, naming the file, even with
// on_error=skip — as SQLite's reading of a value fails the statement —
// rather than skipping it with rows half made.
func TestExportGlobTruncatedWhileExporting(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, nx, ny int64, base float32) string {
		path := filepath.Join(dir, name)
		w, err := tetcore.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.AddDataset(tetcore.DatasetSpec{Name: "g", DType: tetcore.F32, Shape: []int64{nx, ny},
			ChunkShape: []int64{100, ny}, Codec: tetcore.CodecRaw, DimNames: []string{"x", "y"}}); err != nil {
			t.Fatal(err)
		}
		data := make([]byte, 4*nx*ny)
		for i := range nx * ny {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(base+float32(i)))
		}
		if err := w.WriteDataset(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("a.tet", 100, 100, 0)
	b := write("b.tet", 2000, 1000, 1e6)
	write("c.tet", 100, 100, 5e6)
	st, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("tetsql", filepath.Join(dir, "*.tet")+"?on_error=skip")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	e, err := tetsql.NewExport(ctx, conn, "SELECT file, x, y, value FROM g")
	if err != nil {
		t.Fatal(err)
	}
	var seen int64
	cut := false
	_, err = e.WriteParquet(ctx, io.Discard, tetsql.ParquetOptions{Progress: func(r int64) {
		if seen += r; !cut && seen > 40000 { // inside b.tet
			cut = true
			if err := os.Truncate(b, st.Size()/3); err != nil {
				t.Error(err)
			}
		}
	}})
	if !cut || !e.TookScan() {
		t.Fatalf("cut %v, fast path %v: the test did not run as meant", cut, e.TookScan())
	}
	if err == nil || !strings.Contains(err.Error(), "b.tet") {
		t.Errorf("export of a file truncated under it: %v, want an error naming b.tet", err)
	}
}
