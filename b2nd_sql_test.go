package tetsql_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// TestB2ndSQL_fixtures opens every Blosc2 NDim fixture through a DSN and
// checks what SQL answers against expected.json: the catalog, count, NaN
// count, sum, min, max, the probed cells, every element (by the SHA-256
// of the array read back in rowid order) and the _agg companion against
// the cells table. Files that must be refused fail to open with an error
// naming why.
func TestB2ndSQL_fixtures(t *testing.T) {
	t.Parallel()
	for _, f := range loadB2ndFixtures(t) {
		t.Run(f.Dataset, func(t *testing.T) {
			t.Parallel()
			// agg_rewrite=false: the cells answers come from a cells scan,
			// not from the _agg companion they are compared with.
			conn, err := tryConn(t, f.path()+"?agg_rewrite=false")
			switch {
			case f.ExpectError != nil:
				if err == nil || !strings.Contains(err.Error(), *f.ExpectError) || !errors.Is(err, array.ErrUnsupported) {
					t.Fatalf("open: %v, want an unsupported error naming %q", err, *f.ExpectError)
				}
				return
			case len(f.Shape) == 0 && err != nil:
				// Rank 0 is not supported (yet); the refusal must say so.
				if !strings.Contains(err.Error(), "rank 0") || !errors.Is(err, array.ErrUnsupported) {
					t.Fatalf("open: %v, want an unsupported error naming rank 0", err)
				}
				return
			case err != nil:
				t.Fatalf("open: %v", err)
			}
			checkB2ndCatalog(t, conn, f)
			cells := checkB2ndCells(t, conn, f)
			checkB2ndAgg(t, conn, f, cells)
			if f.ValuesUndefined {
				return
			}
			checkB2ndProbes(t, conn, f)
			checkB2ndElements(t, conn, f)
		})
	}
}

// checkB2ndCatalog compares tet_file, tet_datasets and tet_attrs with the
// fixture.
func checkB2ndCatalog(t *testing.T, conn *sql.Conn, f *b2ndFixture) {
	t.Helper()
	ctx := context.Background()
	var fileFormat string
	var datasets int
	if err := conn.QueryRowContext(ctx, "SELECT format, dataset_count FROM tet_file").Scan(&fileFormat, &datasets); err != nil || fileFormat != "b2nd" || datasets != 1 {
		t.Errorf("tet_file: format %q, %d datasets, %v", fileFormat, datasets, err)
	}
	var name, dtype, shape, chunkShape, dimNames, format string
	var elements, chunks int64
	err := conn.QueryRowContext(ctx, "SELECT name, dtype, shape, chunk_shape, dim_names, format, element_count, chunk_count FROM tet_datasets").
		Scan(&name, &dtype, &shape, &chunkShape, &dimNames, &format, &elements, &chunks)
	if err != nil {
		t.Fatalf("tet_datasets: %v", err)
	}
	want := []any{f.Dataset, *f.DType, f.Shape, f.Chunks, f.dims(), "b2nd", f.Expected.Count, f.OnDisk.NChunks}
	got := []any{name, dtype, decodeJSON[[]int64](t, shape), decodeJSON[[]int64](t, chunkShape), decodeJSON[[]string](t, dimNames), format, elements, chunks}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tet_datasets (name, dtype, shape, chunk_shape, dim_names, format, element_count, chunk_count):\n got %v\nwant %v", got, want)
	}
	attrs := map[string]any{}
	rows, err := conn.QueryContext(ctx, "SELECT dataset, key, value FROM tet_attrs")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var ds, k, v string
		if err := rows.Scan(&ds, &k, &v); err != nil {
			t.Fatal(err)
		}
		if ds != f.Dataset {
			t.Errorf("tet_attrs row of dataset %q", ds)
		}
		attrs[k] = decodeJSON[any](t, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	wantAttrs := map[string]any{}
	for k, v := range f.Attrs {
		wantAttrs[k] = decodeJSON[any](t, string(v))
	}
	if !reflect.DeepEqual(attrs, wantAttrs) {
		t.Errorf("tet_attrs %v, want %v", attrs, wantAttrs)
	}
}

// b2ndCellsAnswer is what the cells table answered: count(*),
// count(value), sum (nil when not asked), min, max.
type b2ndCellsAnswer struct {
	count, nonNull int64
	sum, min, max  any
}

// checkB2ndCells runs count, sum, min and max over the cells table and
// compares them with the expected values.
func checkB2ndCells(t *testing.T, conn *sql.Conn, f *b2ndFixture) b2ndCellsAnswer {
	t.Helper()
	var a b2ndCellsAnswer
	// SQLite's sum() of integers fails on int64 overflow of a partial sum,
	// which the i64 fixture (holding both extremes) reaches: its sum is
	// checked from every element in checkB2ndElements.
	sum := "sum(value)"
	if *f.DType == "i64" {
		sum = "NULL"
	}
	q := "SELECT count(*), count(value), " + sum + ", min(value), max(value) FROM " + quoteID(f.Dataset)
	if err := conn.QueryRowContext(context.Background(), q).Scan(&a.count, &a.nonNull, &a.sum, &a.min, &a.max); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if a.count != f.Expected.Count {
		t.Errorf("count(*) %d, want %d", a.count, f.Expected.Count)
	}
	if f.ValuesUndefined {
		return a
	}
	if nan := a.count - a.nonNull; nan != f.Expected.NaNCount {
		t.Errorf("count(*)-count(value) %d, want %d NaN", nan, f.Expected.NaNCount)
	}
	if *f.DType != "i64" {
		checkB2ndSum(t, "sum(value)", a.sum, f)
	}
	checkB2ndExact(t, "min(value)", a.min, f.Expected.Min)
	checkB2ndExact(t, "max(value)", a.max, f.Expected.Max)
	return a
}

// checkB2ndAgg compares the _agg companion's count, null_count, sum, min
// and max with the cells table's answers: counts and extremes exactly,
// the (compensated) sum to a few ulps of the sum of magnitudes.
func checkB2ndAgg(t *testing.T, conn *sql.Conn, f *b2ndFixture, cells b2ndCellsAnswer) {
	t.Helper()
	var count, nulls int64
	var sum, lo, hi any
	q := "SELECT count, null_count, sum, min, max FROM " + quoteID(f.Dataset+"_agg")
	if err := conn.QueryRowContext(context.Background(), q).Scan(&count, &nulls, &sum, &lo, &hi); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if count != cells.nonNull || nulls != cells.count-cells.nonNull {
		t.Errorf("_agg count %d, null_count %d; cells count(value) %d, count(*) %d", count, nulls, cells.nonNull, cells.count)
	}
	if f.ValuesUndefined {
		return
	}
	if !sameSQLNumber(lo, cells.min) || !sameSQLNumber(hi, cells.max) {
		t.Errorf("_agg min %v max %v; cells %v %v", lo, hi, cells.min, cells.max)
	}
	checkB2ndSum(t, "_agg sum", sum, f)
	if cells.sum != nil {
		if d := math.Abs(toFloat(sum) - toFloat(cells.sum)); d > 1e-12*parseF(t, f.Expected.SumAbs) {
			t.Errorf("_agg sum %v, cells sum %v", sum, cells.sum)
		}
	}
}

// checkB2ndProbes reads each probed cell with one equality per dim.
func checkB2ndProbes(t *testing.T, conn *sql.Conn, f *b2ndFixture) {
	t.Helper()
	q := "SELECT value FROM " + quoteID(f.Dataset) + whereDims(f.dims())
	for _, p := range f.Expected.Probes {
		args := make([]any, len(p.Index))
		for i, x := range p.Index {
			args[i] = x
		}
		var got []any
		rows, err := conn.QueryContext(context.Background(), q, args...)
		if err != nil {
			t.Fatalf("%s %v: %v", q, p.Index, err)
		}
		for rows.Next() {
			var v any
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatalf("%s %v: %v", q, p.Index, err)
		}
		if len(got) != 1 {
			t.Errorf("%v: %d rows", p.Index, len(got))
			continue
		}
		if p.Value == "" {
			if got[0] != nil {
				t.Errorf("%v: %v, want NULL (NaN)", p.Index, got[0])
			}
			continue
		}
		checkB2ndExact(t, "probe", got[0], p.Value)
	}
}

// checkB2ndElements reads the whole array in rowid order and checks that
// rowids are the linear indices, the SHA-256 of the elements (as the
// generator hashed them: C order, little-endian, stored width, NaN as the
// one NumPy writes), and, for integer dtypes, the exact sum.
func checkB2ndElements(t *testing.T, conn *sql.Conn, f *b2ndFixture) {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), "SELECT rowid, value FROM "+quoteID(f.Dataset)+" ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	h := sha256.New()
	exact, hashable := new(big.Int), true
	var n int64
	for rows.Next() {
		var id int64
		var v any
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		if id != n {
			t.Fatalf("row %d has rowid %d", n, id)
		}
		n++
		if x, ok := v.(int64); ok {
			exact.Add(exact, big.NewInt(x))
		} else if f.isInt() {
			// A u64 above 2^63-1 arrives as REAL: neither its bits nor the
			// exact sum can be recovered.
			if *f.DType != "u64" || v.(float64) < 1<<63 {
				t.Fatalf("rowid %d: %T %v in an %s array", id, v, v, *f.DType)
			}
			hashable = false
		}
		h.Write(b2ndElementBytes(t, *f.DType, v))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != f.Expected.Count {
		t.Errorf("%d rows, want %d", n, f.Expected.Count)
	}
	if hashable {
		if got := hex.EncodeToString(h.Sum(nil)); got != f.Expected.SHA256 {
			t.Errorf("SHA-256 of the elements %s, want %s", got, f.Expected.SHA256)
		}
	}
	if f.isInt() && hashable {
		if want, _ := new(big.Int).SetString(f.Expected.Sum.String(), 10); want == nil || exact.Cmp(want) != 0 {
			t.Errorf("exact sum of the elements %s, want %s", exact, f.Expected.Sum)
		}
	}
}

// b2ndElementBytes is v in the dtype's stored width, little-endian; NULL
// is the NaN NumPy stores for np.nan.
func b2ndElementBytes(t *testing.T, dtype string, v any) []byte {
	var b [8]byte
	var bits uint64
	switch x := v.(type) {
	case int64:
		bits = uint64(x)
	case float64:
		switch dtype {
		case "f16":
			bits = uint64(array.Float32ToHalf(float32(x)))
		case "f32":
			bits = uint64(math.Float32bits(float32(x)))
		case "f64":
			bits = math.Float64bits(x)
		case "u64":
			bits = uint64(x)
		}
	case nil:
		bits = map[string]uint64{"f16": 0x7e00, "f32": 0x7fc00000, "f64": 0x7ff8000000000000}[dtype]
	default:
		t.Fatalf("value %T %v", v, v)
	}
	binary.LittleEndian.PutUint64(b[:], bits)
	width := map[byte]int{'8': 1, '6': 2, '2': 4, '4': 8}[dtype[len(dtype)-1]]
	return b[:width]
}

// checkB2ndSum compares a sum from SQL with the expected one: exactly when
// both are integers, else to 1e-9 of the sum of magnitudes; NULL when
// there is no element.
func checkB2ndSum(t *testing.T, what string, got any, f *b2ndFixture) {
	t.Helper()
	if f.Expected.Sum == "" {
		if got != nil {
			t.Errorf("%s %v, want NULL", what, got)
		}
		return
	}
	if x, ok := got.(int64); ok && f.isInt() {
		if f.Expected.Sum.String() != big.NewInt(x).String() {
			t.Errorf("%s %d, want %s", what, x, f.Expected.Sum)
		}
		return
	}
	if got == nil || math.Abs(toFloat(got)-parseF(t, f.Expected.Sum)) > 1e-9*parseF(t, f.Expected.SumAbs) {
		t.Errorf("%s %v, want %s", what, got, f.Expected.Sum)
	}
}

// checkB2ndExact compares a value from SQL with an expected number
// exactly: an INTEGER with the integer, a REAL with the double nearest
// the expected number (f16/f32 widen exactly).
func checkB2ndExact(t *testing.T, what string, got any, want json.Number) {
	t.Helper()
	switch x := got.(type) {
	case nil:
		if want != "" {
			t.Errorf("%s NULL, want %s", what, want)
		}
	case int64:
		if want.String() != big.NewInt(x).String() {
			t.Errorf("%s %d, want %s", what, x, want)
		}
	case float64:
		if w, err := want.Float64(); want == "" || err != nil || w != x {
			t.Errorf("%s %v, want %s", what, x, want)
		}
	default:
		t.Errorf("%s: %T %v", what, got, got)
	}
}
