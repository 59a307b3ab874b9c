package tetsql_test

import (
	"context"
	"database/sql"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// columnType returns the ColumnType of q's first column.
func columnType(t *testing.T, db *sql.DB, q string) *sql.ColumnType {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil || len(cts) == 0 {
		t.Fatalf("%s: %d column types, %v", q, len(cts), err)
	}
	return cts[0]
}

// TestFloatDeclaredTypes: value columns (and the _agg table's min, max
// and hidden value) are declared FLOAT32 for f32, FLOAT16 for f16 and
// REAL for f64, in .tet and Blosc2 files and tables over many files.
func TestFloatDeclaredTypes(t *testing.T) {
	tests := []struct {
		path, table, decl string
	}{
		{"testdata/demo.tet", "temperature", "FLOAT32"},
		{"testdata/demo.tet", "location", "REAL"},
		{filepath.Join("b2nd", "testdata", "dtype_float32.b2nd"), "dtype_float32", "FLOAT32"},
		{filepath.Join("b2nd", "testdata", "dtype_float16.b2nd"), "dtype_float16", "FLOAT16"},
		{filepath.Join("b2nd", "testdata", "dtype_float64.b2nd"), "dtype_float64", "REAL"},
		{"testdata/many/**/*.tet", "many.t2m", "FLOAT32"}, // a table over many files
	}
	for _, tt := range tests {
		t.Run(tt.table, func(t *testing.T) {
			db, err := sql.Open("tetsql", tt.path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			schema := ""
			if i := strings.LastIndexByte(tt.table, '.'); i > 0 {
				schema = ", '" + tt.table[:i] + "'"
			}
			for _, q := range []string{
				"SELECT value FROM " + tt.table,
				"SELECT min FROM " + tt.table + "_agg",
				"SELECT max FROM " + tt.table + "_agg",
				"SELECT type FROM pragma_table_xinfo('" + tt.table[strings.LastIndexByte(tt.table, '.')+1:] + "_agg'" + schema + ") WHERE name = 'value'",
			} {
				ct := columnType(t, db, q)
				got := ct.DatabaseTypeName()
				if ct.Name() == "type" { // the hidden column, through its declaration
					if err := db.QueryRow(q).Scan(&got); err != nil {
						t.Fatal(err)
					}
				}
				if got != tt.decl {
					t.Errorf("%s: declared %q, want %q", q, got, tt.decl)
				}
			}
		})
	}
}

// TestFloat32Affinity: FLOAT32 and FLOAT16 give REAL affinity, in a
// native table (text and integers stored as REAL) and in a cells table
// (a text operand compared with value is converted to a number: with no
// affinity every number would sort below every text).
func TestFloat32Affinity(t *testing.T) {
	_, c := openConn(t, "testdata/demo.tet")
	ctx := context.Background()
	for _, s := range []string{
		"CREATE TEMP TABLE n(a FLOAT32, b FLOAT16, c FLOAT)",
		"INSERT INTO n VALUES ('1.5', 2, '-0.25')",
	} {
		if _, err := c.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var ta, tb, tc string
	var gt bool
	err := c.QueryRowContext(ctx, "SELECT typeof(a), typeof(b), typeof(c), a > 1 AND b = 2.0 AND c < 0 FROM n").Scan(&ta, &tb, &tc, &gt)
	if err != nil {
		t.Fatal(err)
	}
	if ta != "real" || tb != "real" || tc != "real" || !gt {
		t.Errorf("typeof a, b, c = %s, %s, %s (want real), numeric comparisons %v", ta, tb, tc, gt)
	}
	var typ string
	var below, belowText, all int
	err = c.QueryRowContext(ctx, `SELECT (SELECT DISTINCT typeof(value) FROM temperature WHERE value IS NOT NULL),
		(SELECT count(*) FROM temperature WHERE value < 0), (SELECT count(*) FROM temperature WHERE value < '0'),
		(SELECT count(value) FROM temperature)`).Scan(&typ, &below, &belowText, &all)
	if err != nil {
		t.Fatal(err)
	}
	if typ != "real" || below != belowText || below == 0 || below == all {
		t.Errorf("typeof(value) %s (want real); value < 0: %d rows, value < '0': %d rows, of %d", typ, below, belowText, all)
	}
}

// writeF32 writes a 1-d f32 dataset "v" holding vals to a new file.
func writeF32(t *testing.T, vals []float32) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f32.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(vals))
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{n}, ChunkShape: []int64{min(n, 4096)},
		Codec: tetcore.CodecRaw, DimNames: []string{"i"}}
	if err := w.AddDataset(spec); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 4*n)
	for i, v := range vals {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	if err := w.WriteDataset(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFloat32ScanRoundTrip: every f32 value scanned into a float32 is
// the stored float32, bit for bit: random bit patterns, subnormals, the
// extremes, ±0 and ±Inf. A NaN element is NULL (sql.Null[float32] is
// not Valid), as everywhere in SQL.
func TestFloat32ScanRoundTrip(t *testing.T) {
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -8.3, 0.7, math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.Float32frombits(0x007fffff), // largest subnormal
		math.Float32frombits(0x00800000), // smallest normal
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 16777217, 1e-40, 3.4e38}
	r := rand.New(rand.NewPCG(20, 5))
	for len(vals) < 20000 {
		vals = append(vals, math.Float32frombits(r.Uint32()))
	}
	for i := range 2000 { // every subnormal exponent's neighbourhood
		vals = append(vals, math.Float32frombits(r.Uint32N(0x00800000)|uint32(i&1)<<31))
	}
	db, err := sql.Open("tetsql", writeF32(t, vals))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT i, value, value FROM v ORDER BY i")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	if got := cts[1].DatabaseTypeName(); got != "FLOAT32" {
		t.Errorf("DatabaseTypeName %q, want FLOAT32", got)
	}
	n, nulls := 0, 0
	for rows.Next() {
		var i int
		var f sql.Null[float32]
		var d sql.NullFloat64
		if err := rows.Scan(&i, &f, &d); err != nil {
			t.Fatalf("row %d: %v", n, err)
		}
		want := vals[i]
		switch {
		case want != want: // NaN
			nulls++
			if f.Valid || d.Valid {
				t.Errorf("i=%d: NaN scanned as %v / %v, want NULL", i, f, d)
			}
		case !f.Valid || math.Float32bits(f.V) != math.Float32bits(want):
			t.Errorf("i=%d: scanned %v (%#08x), want %v (%#08x)", i, f.V, math.Float32bits(f.V), want, math.Float32bits(want))
		case !d.Valid || d.Float64 != float64(want):
			t.Errorf("i=%d: as float64 %v, want %v", i, d.Float64, float64(want))
		}
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(vals) || nulls == 0 {
		t.Errorf("%d rows (want %d), %d NaN", n, len(vals), nulls)
	}
}

// TestFloat16ScanIntoFloat32: an f16 value (FLOAT16) scanned into a
// float32 is exactly the value SQLite holds, as is every f32 fixture
// value.
func TestFloat16ScanIntoFloat32(t *testing.T) {
	for _, name := range []string{"dtype_float16", "dtype_float32"} {
		db, err := sql.Open("tetsql", filepath.Join("b2nd", "testdata", name+".b2nd"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rows, err := db.Query("SELECT value, value FROM " + name + " WHERE value IS NOT NULL")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var f float32
			var d float64
			if err := rows.Scan(&f, &d); err != nil {
				t.Fatal(err)
			}
			if float64(f) != d {
				t.Errorf("%s: float32 %v, float64 %v", name, f, d)
			}
			n++
		}
		if err := rows.Err(); err != nil || n == 0 {
			t.Fatalf("%s: %d rows, %v", name, n, err)
		}
		rows.Close()
	}
}

// TestFloat32ScanType: the scan type of a FLOAT32 column is float64,
// as for every REAL: a column declared FLOAT32 can still deliver a
// double (SELECT value … UNION ALL SELECT 0.1 keeps the first column's
// declared type), which float64 holds exactly and float32 would round.
func TestFloat32ScanType(t *testing.T) {
	db := openDemo(t)
	ct := columnType(t, db, "SELECT value FROM temperature WHERE value IS NOT NULL")
	if ct.DatabaseTypeName() != "FLOAT32" || ct.ScanType() != reflect.TypeFor[float64]() {
		t.Errorf("DatabaseTypeName %q, ScanType %v; want FLOAT32, float64", ct.DatabaseTypeName(), ct.ScanType())
	}
	// The union's column is declared as its first SELECT's.
	rows, err := db.Query("SELECT value FROM temperature WHERE rowid = 1 UNION ALL SELECT 0.1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil || cts[0].DatabaseTypeName() != "FLOAT32" {
		t.Fatalf("union's column: %v", err)
	}
	var got []float64
	for rows.Next() {
		var d float64
		if err := rows.Scan(&d); err != nil {
			t.Fatal(err)
		}
		got = append(got, d)
	}
	if err := rows.Err(); err != nil || len(got) != 2 || got[1] != 0.1 {
		t.Errorf("union: %v, %v; want a second row of 0.1", got, err)
	}
}
