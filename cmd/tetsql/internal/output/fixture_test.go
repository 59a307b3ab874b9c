package output_test

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// sampleCols and sampleRows are the fixed result set every mode is tested
// on. The first four columns are the ones the sqlite3 cross-check loads
// into a native table; x holds the values SQLite cannot store natively.
var sampleCols = []output.Column{
	{Name: "id", Type: "INTEGER"},
	{Name: "f", Type: "REAL"},
	{Name: "s", Type: "TEXT"},
	{Name: "b", Type: "BLOB"},
	{Name: "x"},
}

var sampleRows = [][]any{
	{nil, 0.1, "a,b", []byte{0x00, 0xff}, true},
	{int64(1), 1e300, `say "hi"`, []byte("ABC"), false},
	{int64(-5), math.Copysign(0, -1), "line1\nline2", nil, time.Date(2024, 1, 2, 3, 4, 5, 600000000, time.UTC)},
	{int64(2), 3.0, "中文字", []byte{}, nil},
	{int64(3), math.Inf(1), "café\ttab", nil, math.NaN()},
	{int64(4), math.Inf(-1), "", nil, int64(7)},
	{int64(5), 1.0 / 3, "e\u0301 \u2028 \x01", nil, 2.5},
	{int64(math.MaxInt64), 1e-7, " lead", nil, "text"},
	{int64(math.MinInt64), nil, `x|y\z`, nil, nil},
	{int64(0), 1.2345678901234568e17, "crlf\r\n", nil, nil},
	{int64(6), 1e14, "🙂 emoji", nil, nil},
	{int64(7), 1e15, "Ünïcödé", nil, nil},
}

// render writes rows through a new Writer and returns the output.
func render(t testing.TB, mode output.Mode, opts output.Options, cols []output.Column, rows [][]any) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := output.New(mode, &buf, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Header(cols); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Row(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}
