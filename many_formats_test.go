package tetsql_test

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// mixedDataset is a dataset that a Blosc2 or Tensogram fixture holds and
// that .tet files written by the test hold too, with the same dtype and
// dims but other shapes.
type mixedDataset struct {
	name    string
	fixture string // copied into the directory under its base name
	dims    []string
	shapes  [][]int64 // one .tet file per shape
}

var mixedDatasets = []mixedDataset{
	{name: "attrs_dim_names", fixture: "b2nd/testdata/attrs_dim_names.b2nd", dims: []string{"time", "station", "level"},
		shapes: [][]int64{{3, 4, 2}, {5, 2, 3}}},
	{name: "t2m", fixture: "tgm/testdata/forecast.tgm", dims: []string{"message", "latitude", "longitude"},
		shapes: [][]int64{{2, 3, 5}, {1, 4, 6}}},
}

// writeMixedTet writes an f32 dataset of the given shape to path, one
// element in seven NaN, the others distinct per file (salt).
func writeMixedTet(t *testing.T, path string, d mixedDataset, shape []int64, dt tetcore.DType, salt int) {
	t.Helper()
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	chunks := append([]int64{1}, shape[1:]...) // several chunks per file
	spec := tetcore.DatasetSpec{Name: d.name, DType: dt, Shape: shape, ChunkShape: chunks,
		Codec: tetcore.CodecZstd, DimNames: d.dims}
	if err := w.AddDataset(spec); err != nil {
		t.Fatal(err)
	}
	n := int64(1)
	for _, s := range shape {
		n *= s
	}
	size := map[tetcore.DType]int{tetcore.F32: 4, tetcore.F64: 8}[dt]
	data := make([]byte, int64(size)*n)
	for i := range n {
		v := float64(salt*100) + float64(i)*0.75 - 20
		if i%7 == 3 {
			v = math.NaN()
		}
		if dt == tetcore.F64 {
			binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(v))
		} else {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(v)))
		}
	}
	if err := w.WriteDataset(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// mixedDir fills dir with both fixtures and the .tet files of both
// datasets, and returns the files holding each dataset.
func mixedDir(t *testing.T, dir string) map[string][]string {
	t.Helper()
	holders := map[string][]string{}
	for k, d := range mixedDatasets {
		holders[d.name] = append(holders[d.name], copyFile(t, d.fixture, dir))
		for j, shape := range d.shapes {
			p := filepath.Join(dir, fmt.Sprintf("%s_%d.tet", d.name, j))
			writeMixedTet(t, p, d, shape, tetcore.F32, 10*k+j)
			holders[d.name] = append(holders[d.name], p)
		}
	}
	return holders
}

// summary is what the test compares: count(*), count(value), and the
// sum, min and max of value.
type summary struct {
	rows, values int64
	sum          float64
	min, max     float64
}

// add folds one value (nil for NULL) into s.
func (s *summary) add(v *float64) {
	s.rows++
	if v == nil {
		return
	}
	if s.values == 0 || *v < s.min {
		s.min = *v
	}
	if s.values == 0 || *v > s.max {
		s.max = *v
	}
	s.values++
	s.sum += *v
}

func (s summary) String() string {
	return fmt.Sprintf("rows=%d values=%d sum=%.9g min=%g max=%g", s.rows, s.values, s.sum, s.min, s.max)
}

// close reports whether two summaries agree (sums to a relative 1e-12).
func (s summary) close(o summary) bool {
	return s.rows == o.rows && s.values == o.values && s.min == o.min && s.max == o.max &&
		math.Abs(s.sum-o.sum) <= 1e-12*math.Max(1, math.Abs(o.sum))
}

// singleFileSummary reads every value of dataset in one file opened on
// its own, and folds them in Go (no SQL aggregate, so no _agg rewrite).
func singleFileSummary(t *testing.T, path, dataset string, total *summary, byFirst map[int64]*summary) {
	t.Helper()
	_, conn := openConn(t, path)
	rows, err := conn.QueryContext(context.Background(), fmt.Sprintf(`SELECT * FROM %q`, dataset))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var v *float64
		if x, ok := vals[len(vals)-1].(float64); ok {
			v = &x
		}
		total.add(v)
		first := vals[0].(int64)
		if byFirst[first] == nil {
			byFirst[first] = &summary{}
		}
		byFirst[first].add(v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// aggSummary reads count, null_count, sum, min, max of an aggregate row.
func aggSummary(t *testing.T, row *sql.Row) summary {
	t.Helper()
	var s summary
	var nulls int64
	if err := row.Scan(&s.values, &nulls, &s.sum, &s.min, &s.max); err != nil {
		t.Fatal(err)
	}
	s.rows = s.values + nulls
	return s
}

// TestMany_mixedFormats opens .b2nd, .tgm and .tet files in one glob and
// checks that each dataset's cells and aggregate tables give the union
// of the single-file answers, in total and grouped by the first dim.
func TestMany_mixedFormats(t *testing.T) {
	dir := t.TempDir()
	holders := mixedDir(t, dir)
	_, conn := openConn(t, "")
	ctx := context.Background()
	for _, d := range mixedDatasets {
		t.Run(d.name, func(t *testing.T) {
			var want summary
			wantBy := map[int64]*summary{}
			var wantTet summary
			for _, p := range holders[d.name] {
				singleFileSummary(t, p, d.name, &want, wantBy)
				if strings.HasSuffix(p, ".tet") {
					singleFileSummary(t, p, d.name, &wantTet, map[int64]*summary{})
				}
			}
			if want.values == 0 || want.rows == want.values {
				t.Fatalf("degenerate union %v: want values and NULLs", want)
			}
			for _, s := range []string{
				fmt.Sprintf(`CREATE VIRTUAL TABLE temp.%s USING tet_many('%s/*', '%s')`, d.name, dir, d.name),
				fmt.Sprintf(`CREATE VIRTUAL TABLE temp.%s_agg USING tet_many('%s/*', '%s', 'kind=agg')`, d.name, dir, d.name),
			} {
				if _, err := conn.ExecContext(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}

			// Cells, row by row through SQLite (no _agg rewrite on a many-file table).
			var cells summary
			row := conn.QueryRowContext(ctx, fmt.Sprintf(`SELECT count(value), count(*) - count(value), sum(value), min(value), max(value) FROM temp.%s`, d.name))
			cells = aggSummary(t, row)
			if !cells.close(want) {
				t.Errorf("cells over the glob: %v, union of files: %v", cells, want)
			}
			agg := aggSummary(t, conn.QueryRowContext(ctx, fmt.Sprintf(`SELECT count, null_count, sum, min, max FROM temp.%s_agg`, d.name)))
			if !agg.close(want) {
				t.Errorf("_agg over the glob: %v, union of files: %v", agg, want)
			}
			if st := lastScanFiles(t, conn); st[1] != 6 || st[0] < len(holders[d.name]) {
				t.Errorf("_agg scan opened/total files %v, want at least the %d holding %s of 6", st, len(holders[d.name]), d.name)
			}

			// A term on file keeps the .tet files, pruned before opening.
			tet := aggSummary(t, conn.QueryRowContext(ctx, fmt.Sprintf(`SELECT count, null_count, sum, min, max FROM temp.%s_agg WHERE file LIKE '%%.tet'`, d.name)))
			if !tet.close(wantTet) {
				t.Errorf("_agg over the .tet files: %v, union of those files: %v", tet, wantTet)
			}
			if st := lastScanFiles(t, conn); st[1] != 6 || st[0] < 2 || st[0] > 4 {
				t.Errorf("file LIKE '%%.tet': opened/total files %v, want 2 to 4 (the .tet files, the others of the dataset's) of 6", st)
			}

			// Grouped by the first dim: one _agg row per index, equal to the union's groups.
			rows, err := conn.QueryContext(ctx, fmt.Sprintf(`SELECT %s, count, null_count, sum, min, max FROM temp.%s_agg WHERE by = '%s' ORDER BY 1`,
				d.dims[0], d.name, d.dims[0]))
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			n := 0
			for rows.Next() {
				var k, nulls int64
				var g summary
				var sum, mn, mx sql.NullFloat64
				if err := rows.Scan(&k, &g.values, &nulls, &sum, &mn, &mx); err != nil {
					t.Fatal(err)
				}
				g.rows, g.sum, g.min, g.max = g.values+nulls, sum.Float64, mn.Float64, mx.Float64
				if w := wantBy[k]; w == nil || !g.close(*w) {
					t.Errorf("%s = %d: _agg %v, union %v", d.dims[0], k, g, wantBy[k])
				}
				n++
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if n != len(wantBy) {
				t.Errorf("_agg by %s: %d groups, union has %d", d.dims[0], n, len(wantBy))
			}
		})
	}
}

// lastScanFiles returns files_opened and files_total of the connection's
// latest scan.
func lastScanFiles(t *testing.T, conn *sql.Conn) [2]int {
	t.Helper()
	var js string
	if err := conn.QueryRowContext(context.Background(), `SELECT tet_last_scan()`).Scan(&js); err != nil {
		t.Fatal(err)
	}
	var st struct {
		Opened int `json:"files_opened"`
		Total  int `json:"files_total"`
	}
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return [2]int{st.Opened, st.Total}
}

// TestMany_mixedFormatsDtypeMisfit adds a .tet whose dataset is f64 where
// the Blosc2 fixture's is f32: queries reaching it fail naming it, and
// on_error=skip answers over the others.
func TestMany_mixedFormatsDtypeMisfit(t *testing.T) {
	dir := t.TempDir()
	holders := mixedDir(t, dir)
	d := mixedDatasets[0]
	bad := filepath.Join(dir, "zz_misfit.tet") // sorts last: the first file sets the dtype
	writeMixedTet(t, bad, d, []int64{2, 2, 2}, tetcore.F64, 9)
	_, conn := openConn(t, "")
	ctx := context.Background()
	for _, s := range []string{
		fmt.Sprintf(`CREATE VIRTUAL TABLE temp.m USING tet_many('%s/*', '%s')`, dir, d.name),
		fmt.Sprintf(`CREATE VIRTUAL TABLE temp.m_agg USING tet_many('%s/*', '%s', 'kind=agg')`, dir, d.name),
		fmt.Sprintf(`CREATE VIRTUAL TABLE temp.s USING tet_many('%s/*', '%s', 'on_error=skip')`, dir, d.name),
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	for _, q := range []string{`SELECT count(*) FROM temp.m`, `SELECT count FROM temp.m_agg`} {
		var n int64
		err := conn.QueryRowContext(ctx, q).Scan(&n)
		if err == nil {
			t.Errorf("%s: %d rows, want an error naming %s", q, n, bad)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, bad) || !strings.Contains(msg, "f64") {
			t.Errorf("%s: error %q does not name %s and its dtype f64", q, msg, bad)
		}
	}
	var want summary
	for _, p := range holders[d.name] {
		singleFileSummary(t, p, d.name, &want, map[int64]*summary{})
	}
	var got int64
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM temp.s`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != want.rows {
		t.Errorf("on_error=skip: %d rows, want %d from the files that fit", got, want.rows)
	}
	var js string
	if err := conn.QueryRowContext(ctx, `SELECT tet_last_scan()`).Scan(&js); err != nil {
		t.Fatal(err)
	}
	var st struct {
		Skipped int `json:"skipped_files"`
	}
	if err := json.Unmarshal([]byte(js), &st); err != nil || st.Skipped != 1 {
		t.Errorf("on_error=skip: statistics %s (%v), want skipped_files 1", js, err)
	}
}
