package vtab_test

import (
	"database/sql"
	"encoding/binary"
	"math"
	"os"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// writeF64 writes a one-dataset file "v" of f64 values (shape n, chunks
// of chunk elements, codec) to a temporary name and renames it to path,
// as a careful writer replacing a file does. It returns the values' sum.
func writeF64(t testing.TB, path string, n, chunk int64, codec tetcore.Codec, value func(i int64) float64) float64 {
	t.Helper()
	tmp := path + ".tmp"
	sum := writeF64At(t, tmp, n, chunk, codec, value)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	return sum
}

func writeF64At(t testing.TB, path string, n, chunk int64, codec tetcore.Codec, value func(i int64) float64) float64 {
	t.Helper()
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F64, Shape: []int64{n}, ChunkShape: []int64{chunk}, Codec: codec}
	if err := w.AddDataset(spec); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 8*n)
	var sum float64
	for i := range n {
		x := value(i)
		sum += x
		binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(x))
	}
	if err := w.WriteDataset(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return sum
}

// sumOf runs SELECT sum(value) and returns the sum or the error.
func sumOf(db *sql.DB, alias string) (float64, error) {
	var s float64
	err := db.QueryRow(`SELECT sum(value) FROM ` + alias + `.v`).Scan(&s)
	return s, err
}
