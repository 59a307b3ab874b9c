package tetsql_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/tetsql/tetsql"
)

// arrowFormats are the two IPC formats, each with its writer.
var arrowFormats = []struct {
	name  string
	file  bool
	write func(io.Writer, *sql.Rows, tetsql.ArrowOptions) (int64, error)
}{
	{"stream", false, tetsql.WriteArrow},
	{"file", true, tetsql.WriteArrowFile},
}

// querier is a *sql.DB or a *sql.Conn.
type querier interface {
	Query(q string, args ...any) (*sql.Rows, error)
}

// connQuerier runs queries on one connection (for temp tables).
type connQuerier struct{ c *sql.Conn }

func (q connQuerier) Query(s string, args ...any) (*sql.Rows, error) {
	return q.c.QueryContext(context.Background(), s, args...)
}

// exportArrow runs q and returns its Arrow export (a file if file).
func exportArrow(t testing.TB, db querier, q string, file bool, opts tetsql.ArrowOptions) ([]byte, int64, error) {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var buf bytes.Buffer
	write := tetsql.WriteArrow
	if file {
		write = tetsql.WriteArrowFile
	}
	n, err := write(&buf, rows, opts)
	return buf.Bytes(), n, err
}

// readArrow reads an IPC stream or file back: its schema and batches.
func readArrow(t testing.TB, b []byte, file bool) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	var recs []arrow.RecordBatch
	t.Cleanup(func() {
		for _, r := range recs {
			r.Release()
		}
	})
	if file {
		fr, err := ipc.NewFileReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("reading the export back: %v", err)
		}
		defer fr.Close()
		for i := range fr.NumRecords() {
			r, err := fr.RecordBatch(i)
			if err != nil {
				t.Fatal(err)
			}
			r.Retain()
			recs = append(recs, r)
		}
		return fr.Schema(), recs
	}
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("reading the export back: %v", err)
	}
	defer r.Release()
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := r.Err(); err != nil {
		t.Fatalf("reading the export back: %v", err)
	}
	return r.Schema(), recs
}

// arrowRows flattens the batches into rows of SQL-like values: integers
// as int64 (uint64 above the int64 range as uint64), floats as float64
// (float32 widened exactly), utf8 as string, binary as []byte.
func arrowRows(recs []arrow.RecordBatch) [][]any {
	var out [][]any
	for _, rec := range recs {
		for i := range int(rec.NumRows()) {
			row := make([]any, rec.NumCols())
			for c, col := range rec.Columns() {
				row[c] = arrowCell(col, i)
			}
			out = append(out, row)
		}
	}
	return out
}

// arrowCell is the value of row i of a column (see arrowRows).
func arrowCell(col arrow.Array, i int) any {
	if col.IsNull(i) {
		return nil
	}
	switch a := col.(type) {
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return int64(a.Value(i))
	case *array.Uint16:
		return int64(a.Value(i))
	case *array.Uint32:
		return int64(a.Value(i))
	case *array.Uint64:
		if u := a.Value(i); u > math.MaxInt64 {
			return u
		}
		return int64(a.Value(i))
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return bytes.Clone(a.Value(i))
	case *array.Boolean:
		return a.Value(i)
	}
	return struct{ unknown string }{col.DataType().String()}
}

// sameSQL reports whether the value read back holds the SQL value want
// exactly (a uint64 above the int64 range matches the REAL SQLite holds
// it as).
func sameSQL(got, want any) bool {
	switch g := got.(type) {
	case nil:
		return want == nil
	case []byte:
		w, ok := want.([]byte)
		return ok && bytes.Equal(g, w)
	case uint64:
		w, ok := want.(float64)
		return ok && w >= 1<<63 && uint64(w) == g
	case float64:
		w, ok := want.(float64)
		return ok && math.Float64bits(g) == math.Float64bits(w)
	}
	return got == want
}

// checkFields asserts the schema: names, order, types, all nullable.
func checkFields(t *testing.T, s *arrow.Schema, want []arrow.Field) {
	t.Helper()
	if s.NumFields() != len(want) {
		t.Fatalf("%d fields, want %d: %v", s.NumFields(), len(want), s)
	}
	for i, w := range want {
		f := s.Field(i)
		if f.Name != w.Name || !arrow.TypeEqual(f.Type, w.Type) || !f.Nullable {
			t.Errorf("field %d: %s %v nullable=%v, want %s %v nullable", i, f.Name, f.Type, f.Nullable, w.Name, w.Type)
		}
	}
}

func TestWriteArrowRoundTrip(t *testing.T) {
	db := openDemo(t)
	f := func(name string, typ arrow.DataType) arrow.Field { return arrow.Field{Name: name, Type: typ} }
	i64 := func(name string) arrow.Field { return f(name, arrow.PrimitiveTypes.Int64) }
	str := func(name string) arrow.Field { return f(name, arrow.BinaryTypes.String) }
	tests := []struct {
		name    string
		q       string
		fields  []arrow.Field
		batches int // with BatchRows 1000
		nulls   int
	}{
		{"f32 cells with labels and NaN as NULL", "SELECT * FROM temperature",
			[]arrow.Field{i64("time"), i64("station"), str("time_label"), str("station_label"), f("value", arrow.PrimitiveTypes.Float32)}, 19, 9},
		{"f64 cells", "SELECT * FROM location",
			[]arrow.Field{i64("station"), i64("coord"), str("station_label"), str("coord_label"), f("value", arrow.PrimitiveTypes.Float64)}, 1, 0},
		{"i32 cells", "SELECT station, value FROM elevation", []arrow.Field{i64("station"), f("value", arrow.PrimitiveTypes.Int32)}, 1, 0},
		{"expressions", "SELECT value * 2 AS twice, station + 1 AS s, station_label || '!' AS l, NULL AS nulls, " +
			"CASE WHEN time % 2 = 1 THEN x'00ff' END AS b, time > 3 AS late, station AS station FROM temperature",
			[]arrow.Field{f("twice", arrow.PrimitiveTypes.Float64), i64("s"), str("l"), str("nulls"),
				f("b", arrow.BinaryTypes.Binary), i64("late"), i64("station")}, 19, 9 + 18300 + 9150},
		{"duplicate names", "SELECT station, station, station FROM elevation",
			[]arrow.Field{i64("station"), i64("station_2"), i64("station_3")}, 1, 0},
	}
	for _, format := range arrowFormats {
		for _, tc := range tests {
			t.Run(format.name+"/"+tc.name, func(t *testing.T) {
				want := pqQueryAll(t, db, tc.q)
				var counted int64
				b, n, err := exportArrow(t, db, tc.q, format.file, tetsql.ArrowOptions{BatchRows: 1000,
					Progress: func(k int64) { counted += k }})
				if err != nil {
					t.Fatal(err)
				}
				if n != int64(len(want)) || counted != n {
					t.Errorf("wrote %d rows (Progress counted %d), the query has %d", n, counted, len(want))
				}
				s, recs := readArrow(t, b, format.file)
				checkFields(t, s, tc.fields)
				if len(recs) != tc.batches {
					t.Errorf("%d record batches, want %d", len(recs), tc.batches)
				}
				for i, r := range recs {
					if r.NumRows() > 1000 || (i < len(recs)-1 && r.NumRows() != 1000) {
						t.Errorf("batch %d has %d rows, want 1000 (fewer only in the last)", i, r.NumRows())
					}
				}
				got := arrowRows(recs)
				if len(got) != len(want) {
					t.Fatalf("%d rows read back, want %d", len(got), len(want))
				}
				nulls := 0
				for r := range want {
					for c := range want[r] {
						if !sameSQL(got[r][c], want[r][c]) {
							t.Fatalf("row %d column %s: %v (%T), want %v (%T)", r, tc.fields[c].Name, got[r][c], got[r][c], want[r][c], want[r][c])
						}
						if got[r][c] == nil {
							nulls++
						}
					}
				}
				if nulls != tc.nulls {
					t.Errorf("%d NULLs read back, want %d", nulls, tc.nulls)
				}
			})
		}
	}
}

func TestWriteArrowEmptyResult(t *testing.T) {
	db := openDemo(t)
	for _, format := range arrowFormats {
		t.Run(format.name, func(t *testing.T) {
			b, n, err := exportArrow(t, db, "SELECT time, time_label, value, value + 1 AS e FROM temperature WHERE 0", format.file, tetsql.ArrowOptions{})
			if err != nil || n != 0 {
				t.Fatalf("n=%d err=%v", n, err)
			}
			s, recs := readArrow(t, b, format.file)
			if len(recs) != 0 {
				t.Errorf("%d batches in an empty export", len(recs))
			}
			checkFields(t, s, []arrow.Field{{Name: "time", Type: arrow.PrimitiveTypes.Int64},
				{Name: "time_label", Type: arrow.BinaryTypes.String}, {Name: "value", Type: arrow.PrimitiveTypes.Float32},
				{Name: "e", Type: arrow.BinaryTypes.String}})
		})
	}
}

// TestWriteArrowExactFloat32 checks that f32 values keep every bit.
func TestWriteArrowExactFloat32(t *testing.T) {
	db := openDemo(t)
	const q = "SELECT value FROM pressure"
	b, _, err := exportArrow(t, db, q, false, tetsql.ArrowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, recs := readArrow(t, b, false)
	want := pqQueryAll(t, db, q)
	if len(recs) != 4 { // 250,344 rows in batches of 65,536
		t.Errorf("%d batches, want 4", len(recs))
	}
	i := 0
	for _, r := range recs {
		for _, got := range r.Column(0).(*array.Float32).Float32Values() {
			w := want[i][0].(float64)
			if math.Float32bits(got) != math.Float32bits(float32(w)) || float64(got) != w {
				t.Fatalf("row %d: %v, want %v", i, got, w)
			}
			i++
		}
	}
	if i != len(want) {
		t.Errorf("%d values read back, want %d", i, len(want))
	}
}

// TestWriteArrowBatchBytes: a batch ends once its BLOB values reach
// ArrowBatchBytes, whatever BatchRows says.
func TestWriteArrowBatchBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 70 MiB")
	}
	db := openDemo(t)
	b, n, err := exportArrow(t, db, "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 70) "+
		"SELECT i, zeroblob(1048576) AS b FROM c", false, tetsql.ArrowOptions{})
	if err != nil || n != 70 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	_, recs := readArrow(t, b, false)
	if len(recs) != 2 || recs[0].NumRows() != tetsql.ArrowBatchBytes>>20 || recs[1].NumRows() != 70-recs[0].NumRows() {
		t.Fatalf("%d batches, want 2 of 64 and 6 rows", len(recs))
	}
}

// TestWriteArrowCutOnError: a stream whose query fails after some
// batches were written does not read as a complete, shorter result.
func TestWriteArrowCutOnError(t *testing.T) {
	db := openDemo(t)
	b, n, err := exportArrow(t, db, "SELECT value, CASE WHEN time > 200 THEN abs(-9223372036854775807 - 1) END FROM temperature",
		false, tetsql.ArrowOptions{BatchRows: 100})
	if err == nil || !strings.Contains(err.Error(), "integer overflow") {
		t.Fatalf("error %v, want integer overflow", err)
	}
	if n < 100 || len(b) == 0 {
		t.Fatalf("%d rows, %d bytes written before the error: want batches written", n, len(b))
	}
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	read := 0
	for r.Next() {
		read += int(r.RecordBatch().NumRows())
	}
	if r.Err() == nil {
		t.Fatalf("the cut stream read cleanly (%d rows); want an error", read)
	}
	if errors.Is(r.Err(), io.EOF) {
		t.Fatalf("the cut stream ends with a plain EOF: %v", r.Err())
	}
}
