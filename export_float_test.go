package tetsql_test

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"

	"github.com/tetsql/tetsql"
)

// nativeFloats are the rows of floatTable: x FLOAT and z DOUBLE hold
// doubles (some no float32 holds, one a float32 holds exactly), y
// FLOAT32 only values a float32 holds.
var nativeFloats = [][3]any{
	{0.1, 0.699999988079071, 0.1},
	{1e300, -8.300000190734863, 1e300},
	{0.699999988079071, 1.0, 0.699999988079071},
	{5e-324, nil, 5e-324},
	{-8.3, float64(math.SmallestNonzeroFloat32), -8.3},
	{nil, math.Inf(1), math.Inf(-1)},
}

// floatTable makes, on one connection, a native temp table n(x FLOAT,
// y FLOAT32, z DOUBLE) holding nativeFloats.
func floatTable(t *testing.T) connQuerier {
	t.Helper()
	c, err := openDemo(t).Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.ExecContext(context.Background(), "CREATE TEMP TABLE n(x FLOAT, y FLOAT32, z DOUBLE)"); err != nil {
		t.Fatal(err)
	}
	for _, r := range nativeFloats {
		if _, err := c.ExecContext(context.Background(), "INSERT INTO n VALUES (?, ?, ?)", r[0], r[1], r[2]); err != nil {
			t.Fatal(err)
		}
	}
	return connQuerier{c}
}

// TestExportNativeFLOAT: a native column declared FLOAT is a double
// (REAL affinity, 8 bytes in SQLite) and exports as DOUBLE / float64
// with every value exact; only FLOAT32 (and FLOAT16) export as
// FLOAT / float32. Through WriteParquet, WriteArrow and Export alike.
func TestExportNativeFLOAT(t *testing.T) {
	q := floatTable(t)
	const sel = "SELECT x, y, z FROM n"
	wantKinds := []parquet.Kind{parquet.Double, parquet.Float, parquet.Double}
	checkParquet := func(t *testing.T, b []byte) {
		t.Helper()
		f, rows := readParquet(t, b)
		for i, fld := range f.Schema().Fields() {
			if k := fld.Type().Kind(); k != wantKinds[i] {
				t.Errorf("column %s: %v, want %v", fld.Name(), k, wantKinds[i])
			}
		}
		if len(rows) != len(nativeFloats) {
			t.Fatalf("%d rows, want %d", len(rows), len(nativeFloats))
		}
		for r, row := range rows {
			for c, v := range row {
				var got any
				switch {
				case v.IsNull():
				case v.Kind() == parquet.Float:
					got = float64(v.Float())
				default:
					got = v.Double()
				}
				if !sameSQL(got, nativeFloats[r][c]) {
					t.Errorf("row %d column %d: %v, want %v", r, c, got, nativeFloats[r][c])
				}
			}
		}
	}
	t.Run("WriteParquet", func(t *testing.T) {
		rows, err := q.Query(sel)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var buf bytes.Buffer
		if _, err := tetsql.WriteParquet(&buf, rows, tetsql.ParquetOptions{}); err != nil {
			t.Fatal(err)
		}
		checkParquet(t, buf.Bytes())
	})
	t.Run("Export.WriteParquet", func(t *testing.T) {
		e, err := tetsql.NewExport(context.Background(), q.c, sel)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := e.WriteParquet(context.Background(), &buf, tetsql.ParquetOptions{}); err != nil {
			t.Fatal(err)
		}
		checkParquet(t, buf.Bytes())
	})
	for _, format := range arrowFormats {
		t.Run(format.name, func(t *testing.T) {
			b, _, err := exportArrow(t, q, sel, format.file, tetsql.ArrowOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s, recs := readArrow(t, b, format.file)
			p := arrow.PrimitiveTypes
			checkFields(t, s, []arrow.Field{{Name: "x", Type: p.Float64}, {Name: "y", Type: p.Float32}, {Name: "z", Type: p.Float64}})
			for r, row := range arrowRows(recs) {
				for c, v := range row {
					if !sameSQL(v, nativeFloats[r][c]) {
						t.Errorf("row %d column %d: %v, want %v", r, c, v, nativeFloats[r][c])
					}
				}
			}
		})
	}
}
