package tetsql_test

import (
	"context"
	"database/sql"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestB2ndSQL_groupedAndTopK: on the Blosc2 NDim fixtures, the _agg
// companion grouped by each dim (and by the first two) gives the counts,
// NULL counts and extremes of GROUP BY over the cells table exactly, and
// its sums to 1e-12 of the sum of magnitudes; ORDER BY value [DESC]
// LIMIT k [OFFSET m] (the top-k heap) returns the rows a sort of every
// element gives, ties by rowid, NaN (NULL) first ascending.
func TestB2ndSQL_groupedAndTopK(t *testing.T) {
	t.Parallel()
	for _, f := range loadB2ndFixtures(t) {
		// The fixtures of over 10000 elements (grid_25_chunks, zstd_dict,
		// blosclz_many_blocks) would take a minute under -race, every
		// element passing through SQLite's GROUP BY three times; their
		// decoding is checked element by element in TestB2ndSQL_fixtures.
		if f.ExpectError != nil || len(f.Shape) == 0 || f.ValuesUndefined || f.Expected.Count > 10000 {
			continue
		}
		t.Run(f.Dataset, func(t *testing.T) {
			t.Parallel()
			_, conn := openConn(t, f.path()+"?agg_rewrite=false")
			dims := f.dims()
			groupings := [][]string{}
			for _, d := range dims {
				groupings = append(groupings, []string{d})
			}
			if len(dims) > 1 {
				groupings = append(groupings, dims[:2])
			}
			// SQLite's integer sum() overflows on the i64 fixture's extremes.
			sum := "sum(value)"
			if *f.DType == "i64" {
				sum = "NULL"
			}
			sumAbs := parseF(t, f.Expected.SumAbs)
			for _, g := range groupings {
				cols := quoteIDs(g)
				aggSum := "sum"
				if *f.DType == "i64" {
					aggSum = "NULL"
				}
				agg := groupRows(t, conn, "SELECT "+cols+", count, null_count, min, max, "+aggSum+" FROM "+
					quoteID(f.Dataset+"_agg")+"('"+strings.Join(g, ",")+"') ORDER BY "+cols)
				cells := groupRows(t, conn, "SELECT "+cols+", count(value), count(*) - count(value), min(value), max(value), "+sum+
					" FROM "+quoteID(f.Dataset)+" GROUP BY "+cols+" ORDER BY "+cols)
				if len(agg) != len(cells) {
					t.Fatalf("by %s: %d groups from _agg, %d from GROUP BY", cols, len(agg), len(cells))
				}
				for i := range agg {
					a, c := agg[i], cells[i]
					n := len(a) - 1
					if !reflect.DeepEqual(a[:n], c[:n]) || math.Abs(toFloat(a[n])-toFloat(c[n])) > 1e-12*sumAbs ||
						(a[n] == nil) != (c[n] == nil) {
						t.Errorf("by %s, group %d: _agg %v, GROUP BY %v", cols, i, a, c)
					}
				}
			}
			all := b2ndCells(t, conn, "SELECT rowid, value FROM "+quoteID(f.Dataset))
			for _, tt := range []struct {
				order       string
				desc        bool
				limit, skip int
			}{{"value", false, 7, 0}, {"value DESC", true, 7, 0}, {"value", false, 5, 3}, {"value DESC", true, 4, 40}} {
				q := "SELECT rowid, value FROM " + quoteID(f.Dataset) + " ORDER BY " + tt.order + " LIMIT ? OFFSET ?"
				got := b2ndCellsArgs(t, conn, q, tt.limit, tt.skip)
				want := topK(all, tt.desc, tt.limit, tt.skip)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s (%d, %d): %v, want %v", q, tt.limit, tt.skip, got, want)
				}
			}
		})
	}
}

// quoteIDs is the quoted names joined by ", ".
func quoteIDs(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteID(n)
	}
	return strings.Join(q, ", ")
}

// groupRows runs q and returns its rows.
func groupRows(t *testing.T, conn *sql.Conn, q string) [][]any {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		r := make([]any, len(cols))
		p := make([]any, len(cols))
		for i := range r {
			p[i] = &r[i]
		}
		if err := rows.Scan(p...); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// b2ndCellsArgs runs q, which selects rowid and value, with args.
func b2ndCellsArgs(t *testing.T, conn *sql.Conn, q string, args ...any) []b2ndCell {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q, args...)
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

// topK sorts the cells as SQLite's ORDER BY value [DESC] does (NULL
// lowest), ties by rowid, and returns rows skip to skip+limit.
func topK(all []b2ndCell, desc bool, limit, skip int) []b2ndCell {
	s := append([]b2ndCell(nil), all...)
	sort.SliceStable(s, func(i, j int) bool {
		c := compareSQL(s[i].value, s[j].value)
		if desc {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
		return s[i].rowid < s[j].rowid
	})
	if skip >= len(s) {
		return nil
	}
	return s[skip:min(len(s), skip+limit)]
}

// compareSQL orders two values from SQL as SQLite does: NULL first,
// INTEGER and REAL by their exact values.
func compareSQL(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	x, xi := a.(int64)
	y, yi := b.(int64)
	if xi && yi {
		return cmpOrdered(x, y)
	}
	return cmpOrdered(toFloat(a), toFloat(b))
}

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
