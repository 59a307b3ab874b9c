package tetsql_test

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// writeLinear writes datasets of f64 whose value at each index is its
// row-major position, so every query has an answer computed from the
// shape alone.
func writeLinear(t *testing.T, path string, specs ...tetcore.DatasetSpec) {
	t.Helper()
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		s.DType = tetcore.F64
		if err := w.AddDataset(s); err != nil {
			t.Fatal(err)
		}
	}
	for {
		di, _, start, extent, ok := w.NextChunk()
		if !ok {
			break
		}
		shape := specs[di].Shape
		n := int64(1)
		for _, e := range extent {
			n *= e
		}
		data := make([]byte, 8*n)
		idx := make([]int64, len(shape))
		for k := range n {
			lin := int64(0)
			for a := range shape {
				lin = lin*shape[a] + start[a] + idx[a]
			}
			binary.LittleEndian.PutUint64(data[8*k:], math.Float64bits(float64(lin)))
			for a := len(idx) - 1; a >= 0; a-- { // next index, last axis fastest
				if idx[a]++; idx[a] < extent[a] {
					break
				}
				idx[a] = 0
			}
		}
		if err := w.WriteChunk(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func spec2(name string, dims ...string) tetcore.DatasetSpec {
	s := tetcore.DatasetSpec{Name: name, Shape: []int64{3, 4}, ChunkShape: []int64{2, 3}}
	if dims != nil {
		s.DimNames = dims
		s.Labels = [][]string{{"a", "b", "c"}, {"w", "x", "y", "z"}}
	}
	return s
}

// nulLabels gives s labels that differ only after a NUL byte, so that a
// label cut at its NUL selects another index.
func nulLabels(s tetcore.DatasetSpec) tetcore.DatasetSpec {
	s.Labels = [][]string{{"a", "a\x00", "a\x00b"}, {"w", "x\x00", "x", "x\x00\x00"}}
	return s
}

// TestNames_validFilesOpen: files whose dataset or dim names clash with
// SQLite's rules or with tetsql's own tables open; every dataset gets a
// cells and an aggregate table under the documented names, listed in
// tet_datasets, and both answer with the file's values.
func TestNames_validFilesOpen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		specs []tetcore.DatasetSpec
		// dataset name → cells table, agg table
		tables map[string][2]string
		// dataset name → dim columns
		cols map[string][]string
	}{
		{"case", []tetcore.DatasetSpec{spec2("Temp"), spec2("temp"), spec2("TEMP_2")},
			map[string][2]string{"Temp": {"Temp", "Temp_agg"}, "temp": {"temp_2", "temp_2_agg"}, "TEMP_2": {"TEMP_2_2", "TEMP_2_2_agg"}}, nil},
		{"non-ascii case is distinct", []tetcore.DatasetSpec{spec2("Ä"), spec2("ä")},
			map[string][2]string{"Ä": {"Ä", "Ä_agg"}, "ä": {"ä", "ä_agg"}}, nil},
		{"reserved prefixes", []tetcore.DatasetSpec{spec2("sqlite_master"), spec2("SQLite_x"), spec2("tet_datasets"), spec2("TET_new")},
			map[string][2]string{"sqlite_master": {"_sqlite_master", "_sqlite_master_agg"}, "SQLite_x": {"_SQLite_x", "_SQLite_x_agg"},
				"tet_datasets": {"_tet_datasets", "_tet_datasets_agg"}, "TET_new": {"_TET_new", "_TET_new_agg"}}, nil},
		{"companion clash", []tetcore.DatasetSpec{spec2("t"), spec2("t_agg")},
			map[string][2]string{"t": {"t", ""}, "t_agg": {"t_agg", "t_agg_agg"}}, nil},
		{"NUL and quotes", []tetcore.DatasetSpec{nulLabels(spec2("a\x00b", "x\x00", `y"]'`)), spec2(`q"u'o]t[e`), spec2("a_b")},
			map[string][2]string{"a\x00b": {"a_b", "a_b_agg"}, `q"u'o]t[e`: {`q"u'o]t[e`, `q"u'o]t[e_agg`}, "a_b": {"a_b_2", "a_b_2_agg"}},
			map[string][]string{"a\x00b": {"x_", `y"]'`}}},
		{"odd characters", []tetcore.DatasetSpec{spec2("a,b)"), spec2("(c"), spec2(" lead "), spec2("tab\tnl\n"), spec2("session=1"),
			spec2("dataset_id=0"), spec2("température/группа"), spec2("[x]", "x y", "[z]")},
			map[string][2]string{"a,b)": {"a,b)", "a,b)_agg"}, " lead ": {" lead ", " lead _agg"}, "session=1": {"session=1", "session=1_agg"},
				"dataset_id=0": {"dataset_id=0", "dataset_id=0_agg"}, "température/группа": {"température/группа", "température/группа_agg"}},
			map[string][]string{"[x]": {"x y", "[z]"}}},
		{"dims named like agg columns", []tetcore.DatasetSpec{spec2("p", "min", "max"), spec2("q", "count", "x"), spec2("r", "x", "BY"),
			spec2("s", "null_count", "x"), spec2("u", "time", "time_label"), spec2("v", "time", "station")},
			nil, map[string][]string{"p": {"d0", "d1"}, "q": {"d0", "d1"}, "r": {"d0", "d1"}, "s": {"d0", "d1"}, "u": {"d0", "d1"}, "v": {"time", "station"}}},
		{"zero extent", []tetcore.DatasetSpec{
			{Name: "z", Shape: []int64{0, 4}, ChunkShape: []int64{2, 3}, DimNames: []string{"a", "b"}, Labels: [][]string{{}, {"w", "x", "y", "z"}}},
			{Name: "zz", Shape: []int64{3, 0, 1 << 40}, ChunkShape: []int64{1, 1, 1 << 10}}}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "f.tet")
			writeLinear(t, path, tc.specs...)
			db, err := sql.Open("tetsql", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			for _, s := range tc.specs {
				var table string
				var aggName sql.NullString
				if err := db.QueryRowContext(ctx, "SELECT table_name, agg_table FROM tet_datasets WHERE name = ?", s.Name).Scan(&table, &aggName); err != nil {
					t.Fatalf("%q: tet_datasets: %v", s.Name, err)
				}
				agg := aggName.String
				if want, ok := tc.tables[s.Name]; ok && (table != want[0] || agg != want[1]) {
					t.Errorf("%q: tables %q %q, want %q %q", s.Name, table, agg, want[0], want[1])
				}
				checkDataset(t, db, s, table, agg, tc.cols[s.Name])
			}
		})
	}
}

// checkDataset queries the cells and aggregate tables of a dataset
// written by writeLinear against values computed from its shape.
func checkDataset(t *testing.T, db *sql.DB, s tetcore.DatasetSpec, table, agg string, wantCols []string) {
	t.Helper()
	ctx := context.Background()
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	var cols []string
	rows, err := db.QueryContext(ctx, "SELECT name FROM tet_dims WHERE dataset = ? ORDER BY axis", s.Name)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var c string
		rows.Scan(&c)
		cols = append(cols, c)
	}
	if rows.Close(); len(cols) != len(s.Shape) || wantCols != nil && fmt.Sprint(cols) != fmt.Sprint(wantCols) {
		t.Fatalf("%q: dim columns %q, want %q", s.Name, cols, wantCols)
	}
	n := int64(1)
	for _, e := range s.Shape {
		n *= e
	}
	var count int64
	var sum sql.NullFloat64
	if err := db.QueryRowContext(ctx, "SELECT count(*), sum(value) FROM "+q(table)).Scan(&count, &sum); err != nil {
		t.Fatalf("%q: %v", table, err)
	}
	if count != n || n > 0 && sum.Float64 != float64(n*(n-1)/2) || n == 0 && sum.Valid {
		t.Errorf("%q: count %d sum %v, want %d %d", table, count, sum, n, n*(n-1)/2)
	}
	if agg == "" {
		// No companion (a dataset named <table>_agg took its name): the
		// name must then be a cells table, not an aggregate one.
		var n int64
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+q(table+"_agg")).Scan(&n); err != nil {
			t.Fatalf("%q_agg: %v", table, err)
		}
		return
	}
	var aggCount int64
	var aggSum, aggMax sql.NullFloat64
	if err := db.QueryRowContext(ctx, "SELECT count, sum, max FROM "+q(agg)).Scan(&aggCount, &aggSum, &aggMax); err != nil {
		t.Fatalf("%q: %v", agg, err)
	}
	if aggCount != n || n > 0 && (aggSum.Float64 != float64(n*(n-1)/2) || aggMax.Float64 != float64(n-1)) {
		t.Errorf("%q: count %d sum %v max %v, want %d %d %d", agg, aggCount, aggSum, aggMax, n, n*(n-1)/2, n-1)
	}
	if len(s.Shape) != 2 || n == 0 {
		return
	}
	// One cell by dims, and the same by labels; a group by the first dim.
	want := float64(2*s.Shape[1] + 1)
	var v float64
	if err := db.QueryRowContext(ctx, fmt.Sprintf("SELECT value FROM %s WHERE %s = 2 AND %s = 1", q(table), q(cols[0]), q(cols[1]))).Scan(&v); err != nil || v != want {
		t.Errorf("%q: value at (2, 1) = %v %v, want %v", table, v, err, want)
	}
	if s.Labels != nil {
		lq := fmt.Sprintf("SELECT value FROM %s WHERE %s = ? AND %s = ?", q(table), q(cols[0]+"_label"), q(cols[1]+"_label"))
		if err := db.QueryRowContext(ctx, lq, s.Labels[0][2], s.Labels[1][1]).Scan(&v); err != nil || v != want {
			t.Errorf("%q: value at labels (%q, %q) = %v %v, want %v", table, s.Labels[0][2], s.Labels[1][1], v, err, want)
		}
		var c int64
		aq := fmt.Sprintf("SELECT count, sum FROM %s WHERE %s = ? AND %s = ?", q(agg), q(cols[0]+"_label"), q(cols[1]+"_label"))
		if err := db.QueryRowContext(ctx, aq, s.Labels[0][2], s.Labels[1][1]).Scan(&c, &v); err != nil || c != 1 || v != want {
			t.Errorf("%q: count, sum at labels (%q, %q) = %d, %v %v, want 1, %v", agg, s.Labels[0][2], s.Labels[1][1], c, v, err, want)
		}
	}
	var groups, total int64
	gq := fmt.Sprintf("SELECT count(*), sum(count) FROM %s WHERE by = ?", q(agg))
	if err := db.QueryRowContext(ctx, gq, cols[0]).Scan(&groups, &total); err != nil || groups != s.Shape[0] || total != n {
		t.Errorf("%q by %q: %d groups of %d elements (%v), want %d of %d", agg, cols[0], groups, total, err, s.Shape[0], n)
	}
}

// writeSparse writes a one-dataset u8 file without footer whose index
// holds only the listed chunks (linear positions of a 1-d grid), each
// filled with its global index mod 251: the format allows any subset.
func writeSparse(t *testing.T, path string, name string, shape, chunk int64, present []int64) {
	t.Helper()
	le := binary.LittleEndian
	rec := make([]byte, 16+len(name))
	le.PutUint32(rec[0:], uint32(len(name)))
	le.PutUint32(rec[4:], 5) // u8
	le.PutUint32(rec[8:], 1)
	copy(rec[16:], name)
	rec = append(rec, make([]byte, (8-len(rec)%8)%8)...)
	rec = le.AppendUint64(rec, uint64(shape))
	rec = le.AppendUint64(rec, uint64(chunk))
	head := make([]byte, 40)
	copy(head, "TETR")
	le.PutUint32(head[4:], 1)
	le.PutUint32(head[8:], 1)
	le.PutUint64(head[32:], uint64(len(rec)))
	head = append(head, rec...)
	head = append(head, make([]byte, (8-len(head)%8)%8)...)
	idxOff := int64(len(head))
	idxLen := int64(32 + 104*len(present))
	le.PutUint64(head[16:], uint64(idxOff))
	le.PutUint64(head[24:], uint64(idxLen))
	idx := make([]byte, idxLen)
	copy(idx, "TIDX")
	le.PutUint32(idx[4:], 1)
	le.PutUint64(idx[8:], uint64(len(present)))
	var payload []byte
	pos := idxOff + idxLen
	for i, c := range present {
		e := idx[32+104*i:]
		le.PutUint64(e[8:], uint64(c))
		n := min(chunk, shape-c*chunk)
		le.PutUint64(e[72:], uint64(pos))
		le.PutUint64(e[80:], uint64(n))
		le.PutUint64(e[88:], uint64(n))
		for k := range n {
			payload = append(payload, byte((c*chunk+k)%251))
		}
		pos += n
	}
	if err := os.WriteFile(path, append(append(head, idx...), payload...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNames_hugeSparseExtent: a 2^40-element axis declared with few
// chunks present (grids of 2^24 and 2^36 chunks) opens; queries within
// the present chunks answer, and a read of an absent chunk fails with a
// clear error.
func TestNames_hugeSparseExtent(t *testing.T) {
	t.Parallel()
	const shape = int64(1) << 40
	for _, chunk := range []int64{1 << 16, 1 << 4} {
		path := filepath.Join(t.TempDir(), "huge.tet")
		last := (shape - 1) / chunk
		writeSparse(t, path, "tet_huge", shape, chunk, []int64{0, last})
		db, err := sql.Open("tetsql", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		ctx := context.Background()
		var table, agg string
		var elements, chunks int64
		if err := db.QueryRowContext(ctx, "SELECT table_name, agg_table, element_count, chunk_count FROM tet_datasets").Scan(&table, &agg, &elements, &chunks); err != nil {
			t.Fatal(err)
		}
		if table != "_tet_huge" || agg != "_tet_huge_agg" || elements != shape || chunks != shape/chunk {
			t.Fatalf("tet_datasets: %q %q %d %d", table, agg, elements, chunks)
		}
		want := func(lo, hi int64) (n, sum int64) {
			for i := lo; i < hi; i++ {
				n, sum = n+1, sum+i%251
			}
			return
		}
		span := min(chunk, 1000)
		for _, r := range [][2]int64{{0, span}, {shape - span, shape}, {chunk - 5, chunk}, {3, 9}} {
			wn, ws := want(r[0], r[1])
			var n, s int64
			if err := db.QueryRowContext(ctx, "SELECT count(*), sum(value) FROM _tet_huge WHERE d0 >= ? AND d0 < ?", r[0], r[1]).Scan(&n, &s); err != nil || n != wn || s != ws {
				t.Errorf("chunk %d: cells [%d, %d): count %d sum %d (%v), want %d %d", chunk, r[0], r[1], n, s, err, wn, ws)
			}
			if err := db.QueryRowContext(ctx, "SELECT count, sum FROM _tet_huge_agg WHERE d0 >= ? AND d0 < ?", r[0], r[1]).Scan(&n, &s); err != nil || n != wn || s != ws {
				t.Errorf("chunk %d: agg [%d, %d): count %d sum %d (%v), want %d %d", chunk, r[0], r[1], n, s, err, wn, ws)
			}
		}
		var v int64
		err = db.QueryRowContext(ctx, "SELECT value FROM _tet_huge WHERE d0 = ?", chunk).Scan(&v)
		if err == nil || !strings.Contains(err.Error(), "not present") {
			t.Errorf("chunk %d: absent chunk: %v %v, want a missing-chunk error", chunk, v, err)
		}
	}
}

// TestNames_emptyAndNonUTF8 covers names the writer refuses but a reader
// meets: an empty name (the format allows name_len 0) and bytes that are
// not UTF-8.
func TestNames_emptyAndNonUTF8(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, table string }{{"", "_"}, {"\xff\xfe", "\xff\xfe"}} {
		path := filepath.Join(t.TempDir(), "f.tet")
		writeSparse(t, path, tc.name, 10, 4, []int64{0, 1, 2})
		db, err := sql.Open("tetsql", path)
		if err != nil {
			t.Fatal(err)
		}
		var table, agg string
		var n, sum, aggSum int64
		err = db.QueryRow("SELECT table_name, agg_table FROM tet_datasets WHERE name = ?", tc.name).Scan(&table, &agg)
		if err == nil {
			err = db.QueryRow(`SELECT count(*), sum(value), (SELECT sum FROM "`+agg+`") FROM "`+table+`"`).Scan(&n, &sum, &aggSum)
		}
		if err != nil || table != tc.table || agg != tc.table+"_agg" || n != 10 || sum != 45 || aggSum != 45 {
			t.Errorf("%q: tables %q %q, count %d sum %d agg sum %d (%v); want %q, 10, 45", tc.name, table, agg, n, sum, aggSum, err, tc.table)
		}
		db.Close()
	}
}
