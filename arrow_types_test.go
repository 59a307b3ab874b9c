package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tetsql/tetsql"
)

// arrowOfDType is the Arrow type of each dtype's value column.
var arrowOfDType = map[string]arrow.DataType{
	"u8": arrow.PrimitiveTypes.Uint8, "u16": arrow.PrimitiveTypes.Uint16, "u32": arrow.PrimitiveTypes.Uint32,
	"u64": arrow.PrimitiveTypes.Uint64, "i16": arrow.PrimitiveTypes.Int16, "i32": arrow.PrimitiveTypes.Int32,
	"i64": arrow.PrimitiveTypes.Int64, "f16": arrow.PrimitiveTypes.Float32, "f32": arrow.PrimitiveTypes.Float32,
	"f64": arrow.PrimitiveTypes.Float64,
}

// TestWriteArrowDTypes exports the value column of every dtype of
// testdata/interop/dtypes.tet (integer extremes, float specials) and
// reads it back. Integer value columns, declared by their dtype (INT16 …
// UINT64), get that Arrow type; u64 values above 2^63 arrive as REALs.
func TestWriteArrowDTypes(t *testing.T) {
	db, err := sql.Open("tetsql", "testdata/interop/dtypes.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT name, dtype FROM tet_datasets ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	var sets [][2]string
	for rows.Next() {
		var name, dtype string
		if err := rows.Scan(&name, &dtype); err != nil {
			t.Fatal(err)
		}
		sets = append(sets, [2]string{name, dtype})
	}
	rows.Close()
	if len(sets) != 10 {
		t.Fatalf("%d datasets, want 10", len(sets))
	}
	for _, set := range sets {
		name, dtype := set[0], set[1]
		// A u64 above 2^63-1 arrives as a rounded REAL, which the
		// ordinary path refuses (TestExportArrowFast exports them).
		q := `SELECT value FROM "` + name + `" WHERE value IS NULL OR value < 9223372036854775808.0`
		t.Run(dtype, func(t *testing.T) {
			decl := declaredType(t, db, `SELECT value FROM "`+name+`"`)
			want, ok := arrowOfDType[dtype]
			if !ok {
				t.Fatalf("no Arrow type for dtype %s", dtype)
			}
			if dtype[0] == 'u' || dtype[0] == 'i' {
				if wantDecl := strings.NewReplacer("u", "UINT", "i", "INT").Replace(dtype); decl != wantDecl {
					t.Fatalf("dtype %s declared %s, want %s", dtype, decl, wantDecl)
				}
			}
			sqlRows := pqQueryAll(t, db, q)
			for _, format := range arrowFormats {
				b, n, err := exportArrow(t, db, q, format.file, tetsql.ArrowOptions{BatchRows: 4})
				if err != nil || n != int64(len(sqlRows)) || n < 10 {
					t.Fatalf("%s: n=%d (query %d) err=%v", format.name, n, len(sqlRows), err)
				}
				s, recs := readArrow(t, b, format.file)
				checkFields(t, s, []arrow.Field{{Name: "value", Type: want}})
				got := arrowRows(recs)
				for r := range sqlRows {
					if !sameSQL(got[r][0], sqlRows[r][0]) {
						t.Fatalf("%s: row %d: %v (%T), want %v (%T)", format.name, r, got[r][0], got[r][0], sqlRows[r][0], sqlRows[r][0])
					}
				}
			}
		})
	}
}

// declaredType is the declared type of the first column of q.
func declaredType(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	return columnType(t, db, q).DatabaseTypeName()
}

// intTable makes, on one connection, a temp table whose columns are
// declared by integer dtype names and holds each type's extremes.
func intTable(t *testing.T) connQuerier {
	t.Helper()
	c, err := openDemo(t).Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	for _, s := range []string{
		`CREATE TEMP TABLE ints(a INT8, b INT16, c INT32, d INT64, e UINT8, f UINT16, g UINT32, h UINT64, i BIGINT, j int8, k TINYINT)`,
		`INSERT INTO ints VALUES (-128, -32768, -2147483648, -9223372036854775808, 0, 0, 0, 0, 1, 1, 1)`,
		`INSERT INTO ints VALUES (127, 32767, 2147483647, 9223372036854775807, 255, 65535, 4294967295, 9223372036854775807, 2, 2, 300)`,
		`INSERT INTO ints VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
		`INSERT INTO ints VALUES (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)`,
	} {
		if _, err := c.ExecContext(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	return connQuerier{c}
}

// TestWriteArrowDeclaredInts: columns declared INT8 … UINT64 are
// Arrow int8 … uint64 holding each type's extremes; other INT names
// (BIGINT, TINYINT) are int64.
func TestWriteArrowDeclaredInts(t *testing.T) {
	q := intTable(t)
	p := arrow.PrimitiveTypes
	want := []arrow.Field{{Name: "a", Type: p.Int8}, {Name: "b", Type: p.Int16}, {Name: "c", Type: p.Int32},
		{Name: "d", Type: p.Int64}, {Name: "e", Type: p.Uint8}, {Name: "f", Type: p.Uint16}, {Name: "g", Type: p.Uint32},
		{Name: "h", Type: p.Uint64}, {Name: "i", Type: p.Int64}, {Name: "j", Type: p.Int8}, {Name: "k", Type: p.Int64}}
	for _, format := range arrowFormats {
		b, n, err := exportArrow(t, q, "SELECT * FROM ints", format.file, tetsql.ArrowOptions{})
		if err != nil || n != 4 {
			t.Fatalf("%s: n=%d err=%v", format.name, n, err)
		}
		s, recs := readArrow(t, b, format.file)
		checkFields(t, s, want)
		got := arrowRows(recs)
		wantRows := [][]any{
			{int64(-128), int64(-32768), int64(-2147483648), int64(-9223372036854775808), int64(0), int64(0), int64(0), int64(0), int64(1), int64(1), int64(1)},
			{int64(127), int64(32767), int64(2147483647), int64(9223372036854775807), int64(255), int64(65535), int64(4294967295), int64(9223372036854775807), int64(2), int64(2), int64(300)},
			{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
			{int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0)},
		}
		for r := range wantRows {
			for c := range wantRows[r] {
				if got[r][c] != wantRows[r][c] {
					t.Errorf("%s: row %d column %s: %v (%T), want %v (%T)", format.name, r, want[c].Name, got[r][c], got[r][c], wantRows[r][c], wantRows[r][c])
				}
			}
		}
	}
}

func TestWriteArrowErrors(t *testing.T) {
	db := openDemo(t)
	ints := intTable(t)
	tests := []struct {
		name, q string
		db      querier
		opts    tetsql.ArrowOptions
		msg     string // the error says this; every value error wraps ErrArrowType
	}{
		{"query fails midway", "SELECT value, CASE WHEN time > 200 THEN abs(-9223372036854775807 - 1) END FROM temperature",
			db, tetsql.ArrowOptions{}, "integer overflow"},
		// temperature's chunks are 32 times × 25 stations, scanned chunk
		// by chunk: rows 1-125 are times 0-4 of the first 25 stations.
		{"REAL after INTEGER", "SELECT CASE WHEN time < 5 THEN 1 ELSE 1.5 END AS x FROM temperature",
			db, tetsql.ArrowOptions{}, `arrow: column "x", row 126: value does not fit the column's Arrow type: REAL value 1.5 in a column of type int64`},
		{"TEXT after REAL in a later batch", "SELECT CASE WHEN time < 300 THEN 0.5 ELSE 'late' END AS x FROM temperature",
			db, tetsql.ArrowOptions{BatchRows: 100}, `TEXT value late in a column of type float64`},
		{"BLOB after a batch of NULLs", "SELECT CASE WHEN time > 100 THEN x'00' END AS b FROM temperature",
			db, tetsql.ArrowOptions{BatchRows: 10}, `BLOB value [0] in a column of type utf8`},
		{"f64 value in a FLOAT32 column", "SELECT value FROM temperature UNION ALL SELECT 0.1",
			db, tetsql.ArrowOptions{}, `REAL value 0.1 in a column of type float32`},
		{"INT8 overflow", "SELECT a FROM ints UNION ALL SELECT 128", ints, tetsql.ArrowOptions{},
			`column "a", row 5: value does not fit the column's Arrow type: INTEGER value 128 in a column of type int8`},
		{"INT32 underflow", "SELECT c FROM ints UNION ALL SELECT -2147483649", ints, tetsql.ArrowOptions{},
			`INTEGER value -2147483649 in a column of type int32`},
		{"negative UINT8", "SELECT e FROM ints UNION ALL SELECT -1", ints, tetsql.ArrowOptions{},
			`INTEGER value -1 in a column of type uint8`},
		{"UINT32 overflow", "SELECT g FROM ints UNION ALL SELECT 4294967296", ints, tetsql.ArrowOptions{},
			`INTEGER value 4294967296 in a column of type uint32`},
		{"negative UINT64", "SELECT h FROM ints UNION ALL SELECT -1", ints, tetsql.ArrowOptions{},
			`INTEGER value -1 in a column of type uint64`},
		{"2^64 in UINT64", "SELECT h FROM ints UNION ALL SELECT 18446744073709551616.0", ints, tetsql.ArrowOptions{},
			`REAL value 1.8446744073709552e+19 in a column of type uint64`},
		{"fraction in UINT64", "SELECT h FROM ints UNION ALL SELECT 1.5", ints, tetsql.ArrowOptions{},
			`REAL value 1.5 in a column of type uint64`},
		// SQLite holds a u64 above 2^63-1 as a rounded REAL: refused, even
		// when exact, with the way to export it.
		{"2^63 in UINT64", "SELECT h FROM ints UNION ALL SELECT 9223372036854775808.0", ints, tetsql.ArrowOptions{},
			`REAL value 9.223372036854776e+18 in a column of type uint64 (a u64 above 2^63-1 reaches SQL as a REAL rounded`},
		{"REAL in INT64", "SELECT d FROM ints UNION ALL SELECT 9223372036854775808.0", ints, tetsql.ArrowOptions{},
			`REAL value 9.223372036854776e+18 in a column of type int64`},
		{"TEXT in INT16", "SELECT b FROM ints UNION ALL SELECT '7'", ints, tetsql.ArrowOptions{},
			`TEXT value 7 in a column of type int16`},
	}
	for _, tc := range tests {
		for _, format := range arrowFormats {
			t.Run(format.name+"/"+tc.name, func(t *testing.T) {
				_, _, err := exportArrow(t, tc.db, tc.q, format.file, tc.opts)
				if err == nil {
					t.Fatal("no error")
				}
				if wantType := tc.name != "query fails midway"; wantType != errors.Is(err, tetsql.ErrArrowType) {
					t.Errorf("error %v: wraps ErrArrowType %v", err, errors.Is(err, tetsql.ErrArrowType))
				}
				if !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("error %q does not say %q", err, tc.msg)
				}
			})
		}
	}
}
