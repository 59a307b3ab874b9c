package output_test

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// streamCols and streamRows look like a cells query: dims, a label, a value.
var streamCols = []output.Column{
	{Name: "time", Type: "INTEGER"}, {Name: "lat", Type: "REAL"},
	{Name: "station", Type: "TEXT"}, {Name: "v", Type: "REAL"},
}

var streamRows = [][]any{
	{int64(1700000000), 51.5, "london", 12.25},
	{int64(1700003600), -33.86, "sydney, au", nil},
	{int64(1700007200), 35.6762, "東京", 1.0 / 3},
	{int64(1700010800), 0.0, `say "hi"`, -0.5},
}

// maxAllocs is the most allocations one Row may make in each mode: csv
// builds one string per row for encoding/csv, the others none.
var maxAllocs = map[output.Mode]float64{output.CSV: 1}

func TestRow_allocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts in -short mode")
	}
	for _, m := range output.Modes() {
		t.Run(m.String(), func(t *testing.T) {
			w, _ := output.New(m, io.Discard, output.WithWindow(output.Options{Header: true}, 8))
			w.Header(streamCols)
			i := 0
			row := func() {
				if err := w.Row(streamRows[i%len(streamRows)]); err != nil {
					t.Fatal(err)
				}
				i++
			}
			for range 100 { // fill the window and grow the scratch buffers
				row()
			}
			if got := testing.AllocsPerRun(1000, row); got > maxAllocs[m] {
				t.Errorf("%v: %.1f allocations per Row, want <= %v", m, got, maxAllocs[m])
			}
			w.Close()
		})
	}
}

// TestStream_million pushes 1e6 rows through csv into a discarding writer
// and checks that allocations per row stay constant and the live heap does
// not grow with the row count.
func TestStream_million(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	w, _ := output.New(output.CSV, io.Discard, output.Options{Header: true})
	w.Header(streamCols)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range n {
		if err := w.Row(streamRows[i%len(streamRows)]); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	perRow := float64(after.Mallocs-before.Mallocs) / float64(n)
	if perRow > 1.1 {
		t.Errorf("%.2f allocations per row", perRow)
	}
	if grow := int64(after.HeapAlloc) - int64(before.HeapAlloc); grow > 1<<20 {
		t.Errorf("live heap grew by %d bytes over %d rows", grow, n)
	}
}

// TestGrid_window checks that box, table and markdown hold at most Window
// rows, size columns from them, and stream the rest.
func TestGrid_window(t *testing.T) {
	t.Parallel()
	const window = 10
	for _, m := range []output.Mode{output.Box, output.Table, output.Markdown} {
		var buf bytes.Buffer
		w, _ := output.New(m, &buf, output.WithWindow(output.Options{}, window))
		w.Header(streamCols)
		for i := range 1000 {
			w.Row(streamRows[i%len(streamRows)])
			if b := output.Buffered(w); b > window || i >= window && b != 0 {
				t.Fatalf("%v: %d rows buffered after row %d", m, b, i)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		lines := bytes.Count(buf.Bytes(), []byte("\n"))
		want := 1000 + 2 // header and its rule
		if m != output.Markdown {
			want += 2 // top and bottom rules
		}
		if lines != want {
			t.Errorf("%v: %d lines, want %d", m, lines, want)
		}
	}
}

func BenchmarkRow(b *testing.B) {
	for _, m := range []output.Mode{output.CSV, output.TSV, output.JSONL, output.Box} {
		b.Run(m.String(), func(b *testing.B) {
			size := func(rows int) int {
				var buf bytes.Buffer
				w, _ := output.New(m, &buf, output.WithWindow(output.Options{}, 1))
				w.Header(streamCols)
				for i := range rows {
					w.Row(streamRows[i])
				}
				w.Close()
				return buf.Len()
			}
			rowBytes := int64(size(len(streamRows))-size(0)) / int64(len(streamRows))
			var w output.Writer
			w, _ = output.New(m, io.Discard, output.Options{})
			w.Header(streamCols)
			b.SetBytes(rowBytes)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				w.Row(streamRows[i&3])
				i++
			}
			w.Close()
		})
	}
}
