package tetsql_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
)

// b2ndCell is one row of a cells table.
type b2ndCell struct {
	rowid int64
	value any
}

// TestB2ndSQL_pushdownDifferential: random constraints on the dims of
// Blosc2 NDim arrays of several chunks (=, <, <=, >, >=, BETWEEN, IN,
// indices out of range, and sometimes a term on value: >, <=, =,
// BETWEEN, IN; NaN elements, big-endian, u64 and special chunks among the
// arrays) select the same rows as the same query with every dim written
// +dim (which SQLite does not offer to the table, so the scan reads
// everything and SQLite filters) and as Go evaluating the constraints
// over every element; count, min and max of the selection (answered
// through the _agg rewrite) agree too.
func TestB2ndSQL_pushdownDifferential(t *testing.T) {
	t.Parallel()
	for i, tt := range []struct {
		name    string
		queries int
		// narrow: the first dim constrained gets = or IN, and only every
		// fourth query runs unpushed, so that grid_25_chunks (60000
		// elements) streams few rows (the race detector slows every row).
		narrow bool
	}{{"grid_25_chunks.b2nd", 24, true}, {"rank3.b2nd", 80, false}, {"rank4.b2nd", 80, false}, {"dtype_float32.b2nd", 80, false}, {"sparse_frame.b2nd", 80, false},
		{"dtype_float16.b2nd", 40, false}, {"dtype_be_float64.b2nd", 40, false}, {"dtype_uint64.b2nd", 40, false}, {"special_mixed.b2nd", 40, false}} {
		name := tt.name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := b2ndFixtureNamed(t, name)
			_, conn := openConn(t, f.path())
			ctx := context.Background()
			all := b2ndCells(t, conn, "SELECT rowid, value FROM "+quoteID(f.Dataset)+" ORDER BY rowid")
			if int64(len(all)) != f.Expected.Count {
				t.Fatalf("%d rows, want %d", len(all), f.Expected.Count)
			}
			rng := rand.New(rand.NewSource(int64(16 + i)))
			for k := range tt.queries {
				terms, match := randomB2ndTerms(rng, f, all, tt.narrow)
				where := ""
				if len(terms) > 0 {
					where = " WHERE " + strings.Join(terms, " AND ")
				}
				q := "SELECT rowid, value FROM " + quoteID(f.Dataset) + where + " ORDER BY rowid"
				got := b2ndCells(t, conn, q)
				var want []b2ndCell
				for _, c := range all {
					if match(c) {
						want = append(want, c)
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: %d rows, Go selects %d (first rows %v, %v)", q, len(got), len(want), head(got), head(want))
				}
				var n int64
				var lo, hi any
				agg := "SELECT count(value), min(value), max(value) FROM " + quoteID(f.Dataset) + where
				if err := conn.QueryRowContext(ctx, agg).Scan(&n, &lo, &hi); err != nil {
					t.Fatalf("%s: %v", agg, err)
				}
				wn, wlo, whi := b2ndCount(want)
				if n != wn || !sameSQLNumber(lo, wlo) || !sameSQLNumber(hi, whi) {
					t.Fatalf("%s: %d %v %v, Go %d %v %v", agg, n, lo, hi, wn, wlo, whi)
				}
				if tt.narrow && k%4 != 0 {
					continue
				}
				unpushed := q
				for _, d := range f.dims() {
					unpushed = strings.ReplaceAll(unpushed, quoteID(d)+" ", "+"+quoteID(d)+" ")
				}
				if plain := b2ndCells(t, conn, unpushed); !reflect.DeepEqual(plain, got) {
					t.Fatalf("%s: %d rows; %s: %d rows", q, len(got), unpushed, len(plain))
				}
			}
		})
	}
}

// randomB2ndTerms draws constraints on some dims of f (and sometimes on
// value) and returns them with the Go predicate they mean.
func randomB2ndTerms(rng *rand.Rand, f *b2ndFixture, all []b2ndCell, narrow bool) ([]string, func(b2ndCell) bool) {
	var terms []string
	var preds []func(idx []int64) bool
	for axis, d := range f.dims() {
		if rng.Intn(3) == 0 && !narrow {
			continue
		}
		size := f.Shape[axis]
		pick := func() int64 { return rng.Int63n(size+4) - 2 } // sometimes out of range
		a, b := pick(), pick()
		col := quoteID(d) + " "
		op := rng.Intn(6)
		if narrow {
			op, narrow = []int{0, 5}[rng.Intn(2)], false
		}
		switch op {
		case 0:
			terms = append(terms, fmt.Sprintf("%s= %d", col, a))
			preds = append(preds, func(idx []int64) bool { return idx[axis] == a })
		case 1:
			terms = append(terms, fmt.Sprintf("%s< %d", col, a))
			preds = append(preds, func(idx []int64) bool { return idx[axis] < a })
		case 2:
			terms = append(terms, fmt.Sprintf("%s<= %d", col, a))
			preds = append(preds, func(idx []int64) bool { return idx[axis] <= a })
		case 3:
			terms = append(terms, fmt.Sprintf("%s> %d AND %s>= %d", col, a, col, b))
			preds = append(preds, func(idx []int64) bool { return idx[axis] > a && idx[axis] >= b })
		case 4:
			terms = append(terms, fmt.Sprintf("%sBETWEEN %d AND %d", col, a, b))
			preds = append(preds, func(idx []int64) bool { return idx[axis] >= a && idx[axis] <= b })
		default:
			in := map[int64]bool{a: true, b: true}
			list := []string{fmt.Sprint(a), fmt.Sprint(b)}
			for range rng.Intn(3) {
				c := pick()
				in[c] = true
				list = append(list, fmt.Sprint(c))
			}
			terms = append(terms, fmt.Sprintf("%sIN (%s)", col, strings.Join(list, ", ")))
			preds = append(preds, func(idx []int64) bool { return in[idx[axis]] })
		}
	}
	var valuePred func(any) bool
	if rng.Intn(3) == 0 {
		// A term on value against elements' values (NULL matches nothing).
		x, y := all[rng.Intn(len(all))].value, all[rng.Intn(len(all))].value
		if x != nil && y != nil {
			ops := []struct {
				sql string
				ok  func(v any) bool
			}{
				{fmt.Sprintf("value > %v", x), func(v any) bool { return compareSQL(v, x) > 0 }},
				{fmt.Sprintf("value <= %v", x), func(v any) bool { return compareSQL(v, x) <= 0 }},
				{fmt.Sprintf("value = %v", x), func(v any) bool { return compareSQL(v, x) == 0 }},
				{fmt.Sprintf("value BETWEEN %v AND %v", x, y), func(v any) bool { return compareSQL(v, x) >= 0 && compareSQL(v, y) <= 0 }},
				{fmt.Sprintf("value IN (%v, %v)", x, y), func(v any) bool { return compareSQL(v, x) == 0 || compareSQL(v, y) == 0 }},
			}
			op := ops[rng.Intn(len(ops))]
			terms = append(terms, op.sql)
			valuePred = func(v any) bool { return v != nil && op.ok(v) }
		}
	}
	idx := make([]int64, len(f.Shape))
	return terms, func(c b2ndCell) bool {
		r := c.rowid
		for axis := len(f.Shape) - 1; axis >= 0; axis-- {
			idx[axis] = r % f.Shape[axis]
			r /= f.Shape[axis]
		}
		for _, p := range preds {
			if !p(idx) {
				return false
			}
		}
		return valuePred == nil || valuePred(c.value)
	}
}

// b2ndCells runs q, which selects rowid and value.
func b2ndCells(t *testing.T, conn *sql.Conn, q string) []b2ndCell {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []b2ndCell
	for rows.Next() {
		var c b2ndCell
		if err := rows.Scan(&c.rowid, &c.value); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// b2ndCount is count(value), min(value), max(value) of the cells as
// SQLite computes them.
func b2ndCount(cells []b2ndCell) (n int64, lo, hi any) {
	for _, c := range cells {
		if c.value == nil {
			continue
		}
		if n == 0 || toFloat(c.value) < toFloat(lo) {
			lo = c.value
		}
		if n == 0 || toFloat(c.value) > toFloat(hi) {
			hi = c.value
		}
		n++
	}
	return n, lo, hi
}

// head is the first rows of a result, for a failure message.
func head(cells []b2ndCell) []b2ndCell { return cells[:min(len(cells), 4)] }

// TestB2ndSQL_chunksRead: a query on grid_25_chunks (200×300 in 40×60
// chunks, a 5×5 grid) reads only the chunks its dim constraints reach.
func TestB2ndSQL_chunksRead(t *testing.T) {
	t.Parallel()
	f := b2ndFixtureNamed(t, "grid_25_chunks.b2nd")
	_, conn := openConn(t, f.path()+"?agg_rewrite=false")
	ctx := context.Background()
	for _, tt := range []struct {
		where  string
		rows   int64
		chunks int64
	}{
		{"d0 = 5 AND d1 = 7", 1, 1},
		{"d0 = 199 AND d1 = 299", 1, 1},
		{"d0 = 40 AND d1 = 59", 1, 1},
		{"d0 BETWEEN 35 AND 45", 11 * 300, 10},
		{"d1 < 60", 200 * 60, 5},
		{"d0 >= 160 AND d1 >= 240", 40 * 60, 1},
		{"d0 = 250", 0, 0},
		{"d0 = 100 AND d1 IN (0, 299)", 2, 2},
	} {
		q := "SELECT count(*) FROM grid_25_chunks WHERE " + tt.where
		var n int64
		if err := conn.QueryRowContext(ctx, q).Scan(&n); err != nil || n != tt.rows {
			t.Errorf("%s: %d %v, want %d", q, n, err, tt.rows)
			continue
		}
		scans, err := tetsql.Scans(ctx, conn)
		if err != nil || len(scans) != 1 {
			t.Fatalf("%s: scans %+v %v", q, scans, err)
		}
		if s := scans[0]; s.ChunksDecoded != tt.chunks || s.ChunksTotal != 25 || s.Rows != tt.rows {
			t.Errorf("%s: chunks %d/%d rows %d, want %d/25 rows %d", q, s.ChunksDecoded, s.ChunksTotal, s.Rows, tt.chunks, tt.rows)
		}
	}
	// The same point query, as SQL sees its statistics.
	var v float64
	var decoded int64
	if err := conn.QueryRowContext(ctx, "SELECT value FROM grid_25_chunks WHERE d0 = 123 AND d1 = 234").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT tet_last_scan() ->> '$.chunks_decoded'").Scan(&decoded); err != nil || decoded != 1 {
		t.Errorf("tet_last_scan: %d chunks decoded, %v; want 1", decoded, err)
	}
}
