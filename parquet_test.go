package tetsql_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/tetsql/tetsql"
)

// pqCol is the expected name and Parquet type of a column.
type pqCol struct {
	name string
	kind parquet.Kind
	utf8 bool // STRING logical type
}

func openDemo(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// exportParquet runs q and returns its Parquet export.
func exportParquet(t testing.TB, db *sql.DB, q string, opts tetsql.ParquetOptions) ([]byte, int64, error) {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var buf bytes.Buffer
	n, err := tetsql.WriteParquet(&buf, rows, opts)
	return buf.Bytes(), n, err
}

// pqQueryAll returns every row of q as database/sql scans it into *any.
func pqQueryAll(t *testing.T, db *sql.DB, q string) [][]any {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// readParquet opens a Parquet file and returns it with all its rows.
func readParquet(t *testing.T, b []byte) (*parquet.File, []parquet.Row) {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("reading the export back: %v", err)
	}
	r := parquet.NewReader(f)
	defer r.Close()
	var out []parquet.Row
	buf := make([]parquet.Row, 100)
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			out = append(out, row.Clone())
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return f, out
}

// checkSchema asserts the file's columns: names, order, types, optional.
func checkSchema(t *testing.T, f *parquet.File, want []pqCol) {
	t.Helper()
	fields := f.Schema().Fields()
	if len(fields) != len(want) {
		t.Fatalf("%d columns, want %d: %v", len(fields), len(want), f.Schema())
	}
	for i, w := range want {
		fl := fields[i]
		if fl.Name() != w.name || fl.Type().Kind() != w.kind || !fl.Optional() {
			t.Errorf("column %d: %s %v optional=%v, want %s %v optional", i, fl.Name(), fl.Type().Kind(), fl.Optional(), w.name, w.kind)
		}
		lt := fl.Type().LogicalType()
		utf8 := false
		if lt != nil {
			_, utf8 = lt.Value.(*format.StringType)
		}
		if utf8 != w.utf8 {
			t.Errorf("column %s: STRING logical type %v, want %v", w.name, utf8, w.utf8)
		}
	}
}

// sameValue reports whether the Parquet value v holds the SQL value want
// exactly.
func sameValue(v parquet.Value, want any) bool {
	if want == nil || v.IsNull() {
		return want == nil && v.IsNull()
	}
	switch v.Kind() {
	case parquet.Float:
		f, ok := want.(float64)
		return ok && float64(v.Float()) == f
	case parquet.Double:
		f, ok := want.(float64)
		return ok && v.Double() == f
	case parquet.Int64:
		i, ok := want.(int64)
		return ok && v.Int64() == i
	case parquet.Int32: // a narrow integer column: signed or not, the value fits either reading
		i, ok := want.(int64)
		return ok && (int64(v.Int32()) == i || int64(uint32(v.Int32())) == i)
	case parquet.Boolean:
		b, ok := want.(bool)
		return ok && v.Boolean() == b
	case parquet.ByteArray:
		switch w := want.(type) {
		case string:
			return string(v.ByteArray()) == w
		case []byte:
			return bytes.Equal(v.ByteArray(), w)
		}
	}
	return false
}

func TestWriteParquetRoundTrip(t *testing.T) {
	db := openDemo(t)
	str := func(name string) pqCol { return pqCol{name, parquet.ByteArray, true} }
	i64 := func(name string) pqCol { return pqCol{name, parquet.Int64, false} }
	tests := []struct {
		name   string
		q      string
		cols   []pqCol
		groups int // row groups with RowGroupRows 1000
		nulls  bool
	}{
		{"f32 cells with labels and NULLs", "SELECT * FROM temperature",
			[]pqCol{i64("time"), i64("station"), str("time_label"), str("station_label"), {"value", parquet.Float, false}}, 19, true},
		{"f64 cells", "SELECT * FROM location",
			[]pqCol{i64("station"), i64("coord"), str("station_label"), str("coord_label"), {"value", parquet.Double, false}}, 1, false},
		{"i32 cells", "SELECT station, value FROM elevation", []pqCol{i64("station"), {"value", parquet.Int32, false}}, 1, false},
		{"expressions", "SELECT value * 2 AS twice, station + 1 AS s, station_label || '!' AS l, NULL AS nulls, " +
			"CASE WHEN time % 2 = 1 THEN x'00ff' END AS b, time > 3 AS late, station AS station FROM temperature",
			[]pqCol{{"twice", parquet.Double, false}, i64("s"), str("l"), str("nulls"), {"b", parquet.ByteArray, false},
				i64("late"), i64("station")}, 19, true},
		{"duplicate names", "SELECT station, station, station FROM elevation",
			[]pqCol{i64("station"), i64("station_2"), i64("station_3")}, 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := pqQueryAll(t, db, tc.q)
			b, n, err := exportParquet(t, db, tc.q, tetsql.ParquetOptions{RowGroupRows: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(len(want)) {
				t.Errorf("WriteParquet wrote %d rows, the query has %d", n, len(want))
			}
			f, got := readParquet(t, b)
			checkSchema(t, f, tc.cols)
			if f.NumRows() != int64(len(want)) || len(got) != len(want) {
				t.Fatalf("file has %d rows (%d read), want %d", f.NumRows(), len(got), len(want))
			}
			if g := len(f.RowGroups()); g != tc.groups {
				t.Errorf("%d row groups, want %d", g, tc.groups)
			}
			nulls := 0
			for r := range want {
				for c := range want[r] {
					v := got[r][c]
					if v.Column() != c || !sameValue(v, want[r][c]) {
						t.Fatalf("row %d column %s: %v (column %d), want %v", r, tc.cols[c].name, v, v.Column(), want[r][c])
					}
					if v.IsNull() {
						nulls++
					}
				}
			}
			if (nulls > 0) != tc.nulls {
				t.Errorf("%d NULLs read back, want some: %v", nulls, tc.nulls)
			}
		})
	}
}

func TestWriteParquetEmptyResult(t *testing.T) {
	db := openDemo(t)
	b, n, err := exportParquet(t, db, "SELECT time, time_label, value, value + 1 AS e FROM temperature WHERE 0", tetsql.ParquetOptions{})
	if err != nil || n != 0 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	f, rows := readParquet(t, b)
	if len(rows) != 0 || f.NumRows() != 0 {
		t.Fatalf("%d rows in an empty export", len(rows))
	}
	checkSchema(t, f, []pqCol{{"time", parquet.Int64, false}, {"time_label", parquet.ByteArray, true},
		{"value", parquet.Float, false}, {"e", parquet.ByteArray, true}})
}

// TestWriteParquetInferLate: a column whose first value comes in the
// last row read for inference gets that value's type.
func TestWriteParquetInferLate(t *testing.T) {
	db := openDemo(t)
	b, n, err := exportParquet(t, db, "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 70000) "+
		"SELECT CASE WHEN i >= 65536 THEN i * 0.5 END AS x FROM c", tetsql.ParquetOptions{})
	if err != nil || n != 70000 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	f, rows := readParquet(t, b)
	checkSchema(t, f, []pqCol{{"x", parquet.Double, false}})
	for i, r := range rows {
		if want := float64(i+1) * 0.5; (i+1 >= 65536) != !r[0].IsNull() || (!r[0].IsNull() && r[0].Double() != want) {
			t.Fatalf("row %d: %v, want %v from row 65536 on", i+1, r[0], want)
		}
	}
}

func TestWriteParquetCompression(t *testing.T) {
	db := openDemo(t)
	for _, tc := range []struct {
		name string
		want format.CompressionCodec
	}{{"", format.Zstd}, {"zstd", format.Zstd}, {"snappy", format.Snappy}, {"gzip", format.Gzip}, {"none", format.Uncompressed}} {
		if tc.name != "" && !slices.Contains(tetsql.ParquetCompressions, tc.name) {
			t.Errorf("ParquetCompressions %v lacks %q", tetsql.ParquetCompressions, tc.name)
		}
		t.Run(tc.name, func(t *testing.T) {
			b, n, err := exportParquet(t, db, "SELECT * FROM temperature", tetsql.ParquetOptions{Compression: tc.name})
			if err != nil || n != 18300 {
				t.Fatalf("n=%d err=%v", n, err)
			}
			f, rows := readParquet(t, b)
			if len(rows) != 18300 || len(f.RowGroups()) != 1 {
				t.Fatalf("%d rows in %d row groups", len(rows), len(f.RowGroups()))
			}
			for _, c := range f.Metadata().RowGroups[0].Columns {
				if c.MetaData.Codec != tc.want {
					t.Errorf("column %v: codec %v, want %v", c.MetaData.PathInSchema, c.MetaData.Codec, tc.want)
				}
			}
		})
	}
}

func TestWriteParquetErrors(t *testing.T) {
	db := openDemo(t)
	tests := []struct {
		name, q  string
		opts     tetsql.ParquetOptions
		sentinel error
		msg      string
	}{
		{"unknown codec", "SELECT 1", tetsql.ParquetOptions{Compression: "lz77"}, nil, `unknown compression "lz77"`},
		{"query fails midway", "SELECT value, CASE WHEN time > 200 THEN abs(-9223372036854775807 - 1) END FROM temperature",
			tetsql.ParquetOptions{}, nil, "integer overflow"},
		// temperature's chunks are 32 times × 25 stations, scanned chunk
		// by chunk: rows 1-125 are times 0-4 of the first 25 stations.
		{"REAL after INTEGER", "SELECT CASE WHEN time < 5 THEN 1 ELSE 1.5 END AS x FROM temperature",
			tetsql.ParquetOptions{}, tetsql.ErrParquetType, `column "x", row 126: value does not fit the column's Parquet type: REAL value 1.5 in a column of type INT64`},
		{"TEXT after REAL in a later row group", "SELECT CASE WHEN time < 300 THEN 0.5 ELSE 'late' END AS x FROM temperature",
			tetsql.ParquetOptions{RowGroupRows: 100}, tetsql.ErrParquetType, `TEXT value late in a column of type DOUBLE`},
		{"BLOB after a row group of NULLs", "SELECT CASE WHEN time > 100 THEN x'00' END AS b FROM temperature",
			tetsql.ParquetOptions{RowGroupRows: 10}, tetsql.ErrParquetType, `BLOB value [0] in a column of type STRING`},
		{"first value after ParquetInferRows NULLs", "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 70000) " +
			"SELECT CASE WHEN i > 65536 THEN 1.5 END AS x FROM c",
			tetsql.ParquetOptions{}, tetsql.ErrParquetType, `row 65537: value does not fit the column's Parquet type: REAL value 1.5 in a column of type STRING`},
		{"f64 value in a FLOAT32 column", "SELECT value FROM temperature UNION ALL SELECT 0.1",
			tetsql.ParquetOptions{}, tetsql.ErrParquetType, `REAL value 0.1 in a column of type FLOAT`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := exportParquet(t, db, tc.q, tc.opts)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tc.sentinel)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
}

// TestWriteParquetExactFloat32 checks that f32 values keep every bit,
// including values no short decimal renders.
func TestWriteParquetExactFloat32(t *testing.T) {
	db := openDemo(t)
	b, _, err := exportParquet(t, db, "SELECT value FROM temperature WHERE value IS NOT NULL", tetsql.ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readParquet(t, b)
	want := pqQueryAll(t, db, "SELECT value FROM temperature WHERE value IS NOT NULL")
	for i, r := range rows {
		w := want[i][0].(float64)
		if got := r[0].Float(); math.Float32bits(got) != math.Float32bits(float32(w)) || float64(got) != w {
			t.Fatalf("row %d: %v, want %v", i, got, w)
		}
	}
}

// BenchmarkWriteParquet measures export throughput side by side with
// the same rows only scanned through database/sql ("scan"), the floor
// of any export of *sql.Rows.
func BenchmarkWriteParquet(b *testing.B) {
	db := openDemo(b)
	const q = "SELECT * FROM pressure"
	b.Run("scan", func(b *testing.B) {
		var n int64
		for b.Loop() {
			rows, err := db.Query(q)
			if err != nil {
				b.Fatal(err)
			}
			cols, _ := rows.Columns()
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			for rows.Next() {
				if err := rows.Scan(ptrs...); err != nil {
					b.Fatal(err)
				}
				n++
			}
			rows.Close()
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("parquet", func(b *testing.B) {
		var n int64
		for b.Loop() {
			_, rows, err := exportParquet(b, db, q, tetsql.ParquetOptions{})
			if err != nil {
				b.Fatal(err)
			}
			n += rows
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("export", func(b *testing.B) { // NewExport: the fast path
		ctx := context.Background()
		conn, err := db.Conn(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
		var n, size int64
		for b.Loop() {
			e, err := tetsql.NewExport(ctx, conn, q)
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			rows, err := e.WriteParquet(ctx, &buf, tetsql.ParquetOptions{})
			if err != nil || !e.TookScan() {
				b.Fatalf("%v (fast path %v)", err, e.TookScan())
			}
			n, size = n+rows, size+int64(buf.Len())
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
	})
}

// TestWriteParquetDataPageV1: every page of every column chunk is a
// version 1 data page, which older readers need.
func TestWriteParquetDataPageV1(t *testing.T) {
	db := openDemo(t)
	b, _, err := exportParquet(t, db, "SELECT * FROM temperature", tetsql.ParquetOptions{RowGroupRows: 5000})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := readParquet(t, b)
	pages := 0
	for _, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			md := c.MetaData
			for off := md.DataPageOffset; off < md.DataPageOffset+md.TotalCompressedSize; {
				var h format.PageHeader
				r := (&thrift.CompactProtocol{}).NewReaderFromBytes(b[off:])
				if err := thrift.NewDecoder(r).Decode(&h); err != nil {
					t.Fatalf("page header at %d: %v", off, err)
				}
				if h.Type != format.DataPage {
					t.Fatalf("column %v: page of type %v, want DATA_PAGE (v1)", md.PathInSchema, h.Type)
				}
				off += int64(r.BytesRead()) + int64(h.CompressedPageSize)
				pages++
			}
		}
	}
	if want := 4 * 5; pages < want { // 4 row groups × 5 columns
		t.Errorf("%d pages checked, want at least %d", pages, want)
	}
}
