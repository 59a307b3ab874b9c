package vtab_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// writeOrderFile writes two f32 arrays of shape 20×3×4 holding small
// integers and NaN: "one" has one chunk along every axis but the first
// (its scans come out in rowid order), "two" two chunks along axis 1.
func writeOrderFile(t *testing.T) (string, []diffDataset) {
	rng := rand.New(rand.NewPCG(4, 15))
	shape := []int64{20, 3, 4}
	var sets []diffDataset
	for _, c := range []struct {
		name  string
		chunk []int64
	}{{"one", []int64{6, 3, 4}}, {"two", []int64{6, 2, 4}}} {
		labels := make([]string, shape[0])
		for i := range labels {
			labels[i] = fmt.Sprintf("Z%02d", 30-i) // descending: label order is not index order
		}
		spec := tetcore.DatasetSpec{Name: c.name, DType: tetcore.F32, Shape: shape, ChunkShape: c.chunk,
			DimNames: []string{"d0", "d1", "d2"}, Labels: [][]string{labels, nil, nil}}
		data := make([]byte, 4*20*3*4)
		for i := 0; i < len(data); i += 4 {
			v := float32(rng.IntN(7))
			if rng.IntN(9) == 0 {
				v = float32(math.NaN())
			}
			binary.LittleEndian.PutUint32(data[i:], math.Float32bits(v))
		}
		sets = append(sets, diffDataset{spec, data})
	}
	path := writeSets(t, "order.tet", sets)
	return path, sets
}

// TestRowOrder_consumedOnlyWhenTheScanEmitsIt checks, by EXPLAIN QUERY
// PLAN, which GROUP BY / ORDER BY / DISTINCT over dims SQLite no longer
// sorts for (the scan's rowid order serves), and that every query gives
// the rows a native table with the same values gives (ties of a partial
// ORDER BY broken by rowid on both sides, the order the scan emits).
func TestRowOrder_consumedOnlyWhenTheScanEmitsIt(t *testing.T) {
	path, sets := writeOrderFile(t)
	db, _ := openDB(t, map[string]string{"f": path})
	for _, s := range sets {
		copyNative(t, db, s)
	}
	type tc struct {
		q      string // %s is the table
		tie    string // appended to the native query to fix the order of ties
		sorted bool   // SQLite must not sort for table "one"
		both   bool   // nor for table "two" (its axis 1 is pinned by =)
	}
	cases := []tc{
		{"SELECT d0, count(*), count(value), sum(value), min(value), max(value) FROM %s GROUP BY d0", "", true, false},
		{"SELECT d0, avg(value) FROM %s WHERE d2 > 1 AND d0 BETWEEN 3 AND 17 GROUP BY d0", "", true, false},
		{"SELECT d0, d1, sum(value) FROM %s GROUP BY d0, d1", "", true, false},
		// Groups need only be adjacent (sqlite3_vtab_distinct 1): they come
		// out in the scan's order, not sorted by d1 (compared as sets).
		{"SELECT d1, d0, sum(value) FROM %s GROUP BY d1, d0", " ", true, false},
		{"SELECT d0, count(*) FROM %s GROUP BY d0 ORDER BY d0", "", true, false},
		{"SELECT rowid, value FROM %s ORDER BY d0, d1, d2", "", true, false},
		{"SELECT rowid, value FROM %s WHERE d1 >= 1 AND rowid < 200 ORDER BY d0, d1", ", rowid", true, false},
		{"SELECT rowid, value FROM %s ORDER BY d0", ", rowid", true, false},
		{"SELECT rowid, value FROM %s ORDER BY d0, rowid", "", true, false},
		{"SELECT rowid, value FROM %s ORDER BY rowid", "", true, false},
		{"SELECT rowid, value FROM %s ORDER BY d0 LIMIT 7 OFFSET 3", ", rowid", true, false},
		{"SELECT DISTINCT d0 FROM %s ORDER BY d0", "", true, false},
		{"SELECT d0, d2, sum(value) FROM %s WHERE d1 = 1 GROUP BY d0, d2", "", true, true},
		{"SELECT rowid, value FROM %s WHERE d1 = 2 AND d2 = 3 ORDER BY d0", "", true, true},
		{"SELECT rowid, value FROM %s WHERE d1 = 1.5 ORDER BY d0", "", true, true},
		{"SELECT rowid, value FROM %s WHERE d1 = 1 ORDER BY d1 DESC, d0, d2", "", true, true},
		{"SELECT rowid, value FROM %s WHERE d1 = 1 ORDER BY d2", ", rowid", false, false},
		{"SELECT rowid, value FROM %s WHERE d1 = 1 ORDER BY d0 DESC", ", rowid", false, false},
		{"SELECT rowid, value FROM %s WHERE d1 >= 2 ORDER BY d0", ", rowid", true, false},
		{"SELECT d1, count(*), sum(value) FROM %s GROUP BY d1", "", false, false},
		{"SELECT rowid, value FROM %s ORDER BY d0 DESC", ", rowid", false, false},
		{"SELECT rowid, value FROM %s ORDER BY d1, d0", ", rowid", false, false},
		{"SELECT rowid, value FROM %s ORDER BY d0, d2", ", rowid", false, false},
		{"SELECT rowid, value FROM %s ORDER BY d0, value", ", rowid", false, false},
		{"SELECT rowid, value FROM %s ORDER BY d0, rowid DESC", "", false, false},
		{"SELECT d0_label, count(*) FROM %s GROUP BY d0_label", "", false, false},
		{"SELECT rowid, value FROM %s ORDER BY d0_label", ", rowid", false, false},
		{"SELECT d0, count(*) FROM %s GROUP BY d0 ORDER BY d0 DESC", "", false, false},
	}
	for _, c := range cases {
		for _, s := range sets {
			q := fmt.Sprintf(c.q, "f."+s.spec.Name)
			plan := queryPlan(t, db, q)
			sorts := strings.Contains(plan, "USE TEMP B-TREE FOR")
			if want := !(c.sorted && (s.spec.Name == "one" || c.both)); sorts != want {
				t.Errorf("%s: SQLite sorts %v, want %v:\n%s", q, sorts, want, plan)
			}
			got := rowsOf(t, db, q)
			want := rowsOf(t, db, nativeTie(fmt.Sprintf(c.q, "main.n_"+s.spec.Name), c.tie))
			if sorts && c.tie != "" || c.tie == " " {
				// SQLite's sorter breaks ties as it likes: compare the rows as sets.
				got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s:\ncells:  %v\nnative: %v", q, got, want)
			}
		}
	}
}

// nativeTie appends tie to the ORDER BY of q (before any LIMIT).
func nativeTie(q, tie string) string {
	if tie == "" || tie == " " {
		return q
	}
	if i := strings.Index(q, " LIMIT"); i >= 0 {
		return q[:i] + tie + q[i:]
	}
	return q + tie
}
