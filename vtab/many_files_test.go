package vtab_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// scanStats runs q and returns the statistics of its scan of the many
// table (tet_last_scan on the same connection).
func scanStats(t *testing.T, sess *vtab.Session, q string, run func(string)) vtab.ScanStats {
	t.Helper()
	sess.TakeScans()
	run(q)
	for _, s := range sess.TakeScans() {
		if s.FilesTotal > 0 {
			return s
		}
	}
	t.Fatalf("%s: no many-file scan recorded", q)
	return vtab.ScanStats{}
}

// TestMany_pruningByFileColumns asserts through the statistics that
// terms on file and hive columns open only the files they keep, and
// that the answer is the same as with the terms hidden from the table.
func TestMany_pruningByFileColumns(t *testing.T) {
	dir := t.TempDir()
	manyYear(t, dir)
	db, sess := openDB(t, nil)
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s/**/*.tet', 't2m')`, dir))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s/**/*.tet', 't2m', 'kind=agg')`, dir))
	run := func(q string) { rowsOf(t, db, q) }
	cases := []struct {
		where  string
		opened int64
	}{
		{"year = '2021'", 6},
		{"year = 2021", 6},
		{"month IN ('01', '02')", 4},
		{"month >= '11'", 2},
		{"month BETWEEN '03' AND '05' AND year = '2020'", 3},
		{"file LIKE '%year=2020/month=1%'", 3},
		{"file GLOB '*year=2021/month=0[1-3]*'", 3},
		{fmt.Sprintf("file = '%s/year=2020/month=07/t2m.tet'", dir), 1},
		{"year = '1999'", 0},
		{"month <> '06'", 16},
		{"lat = 2", 18},
	}
	for _, c := range cases {
		for _, table := range []string{"m", "m_agg"} {
			q := "SELECT count(*), sum(value) FROM m WHERE " + c.where
			hidden := "SELECT count(*), sum(value) FROM m WHERE " + hideFileTerms(c.where)
			if table == "m_agg" {
				q = "SELECT count, sum FROM m_agg WHERE " + c.where
				hidden = "SELECT count(value), sum(value) FROM m WHERE " + c.where
			}
			st := scanStats(t, sess, q, run)
			if st.FilesOpened != c.opened || st.FilesTotal != 18 {
				t.Errorf("%s: files=%d/%d, want %d/18", q, st.FilesOpened, st.FilesTotal, c.opened)
			}
			if !strings.Contains(st.String(), fmt.Sprintf(" files=%d/18 ", c.opened)) {
				t.Errorf("%s: stats line %q lacks files=", q, st.String())
			}
			if got, want := rowsOf(t, db, q), rowsOf(t, db, hidden); !sameRows(got, want) {
				t.Errorf("%s: %v, with the terms hidden %v", q, got, want)
			}
		}
	}
	var js string
	if err := db.QueryRow(`SELECT tet_last_scan()`).Scan(&js); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil || m["files_total"] != 18.0 {
		t.Errorf("tet_last_scan() = %s, want files_total 18", js)
	}
}

// hideFileTerms makes every column reference of a WHERE clause opaque to the
// table's planner (+col, and CAST(col AS TEXT), which keeps TEXT
// affinity, for TEXT), so SQLite filters alone.
func hideFileTerms(where string) string {
	r := strings.NewReplacer("year ", "CAST(year AS TEXT) ", "month ", "CAST(month AS TEXT) ", "file ", "CAST(file AS TEXT) ", "lat ", "+lat ")
	return r.Replace(where + " ")
}

// TestMany_2000Files reads 2,000 tiny files as one table: every element
// once (each file holds i*10 … i*10+9, so the table holds 0 … 19,999),
// never more files open than the template, the tables' kept files and
// the file being read, and none once the database is closed; the same
// through the aggregate table.
func TestMany_2000Files(t *testing.T) {
	const files = 2000
	dir := t.TempDir()
	manyTiny(t, dir, files)
	db, sess := openDB(t, nil)
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s/**/*.tet', 'v')`, dir))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s/**/*.tet', 'v', 'kind=agg')`, dir))
	rows, err := db.Query(`SELECT file, value FROM m`)
	if err != nil {
		t.Fatal(err)
	}
	n, most := 0, 0
	seen := make([]bool, files*10)
	paths := map[string]bool{}
	for rows.Next() {
		var f string
		var v float64
		if err := rows.Scan(&f, &v); err != nil {
			t.Fatal(err)
		}
		if v < 0 || v >= files*10 || seen[int(v)] {
			t.Fatalf("value %v twice or out of range", v)
		}
		seen[int(v)] = true
		paths[f] = true
		n++
		if n%97 == 0 {
			most = max(most, len(sess.Registry.OpenPaths()))
		}
	}
	rows.Close()
	if n != files*10 || len(paths) != files {
		t.Fatalf("%d rows from %d files, want %d from %d", n, len(paths), files*10, files)
	}
	if most > 2+vtab.ManyKeepFiles {
		t.Errorf("%d files open at once during the scan, want at most %d (the template, the kept files, the one read)", most, 2+vtab.ManyKeepFiles)
	}
	if open := sess.Registry.OpenPaths(); len(open) != 1+vtab.ManyKeepFiles {
		t.Errorf("after the scan %d files open, want the template and %d kept: %v", len(open), vtab.ManyKeepFiles, open)
	}
	want := []string{fmt.Sprint(files*10, "|", (files*10-1)*files*10/2, "|", 0, "|", files*10-1)}
	for _, q := range []string{`SELECT count(*), sum(value), min(value), max(value) FROM m`, `SELECT count, sum, min, max FROM m_agg`} {
		st := scanStats(t, sess, q, func(q string) {
			if got := rowsOf(t, db, q); !sameRows(got, want) {
				t.Errorf("%s = %v, want %s", q, got, want)
			}
		})
		if st.FilesOpened != files || st.FilesTotal != files {
			t.Errorf("%s: files=%d/%d, want %d/%d", q, st.FilesOpened, st.FilesTotal, files, files)
		}
	}
	if open := sess.Registry.OpenPaths(); len(open) > 1+2*vtab.ManyKeepFiles {
		t.Errorf("after the aggregate %d files open, want at most %d: %v", len(open), 1+2*vtab.ManyKeepFiles, open)
	}
	db.Close()
	if open := sess.Registry.OpenPaths(); len(open) != 0 {
		t.Errorf("after closing the database %d files open: %v", len(open), open)
	}
}

// TestMany_damagedAndMisfitFiles: a file that cannot be read, or whose
// dataset differs from the first file's, fails the query with its name,
// or is skipped with a warning and counted under on_error=skip. A file
// without the dataset holds no rows of the table.
func TestMany_damagedAndMisfitFiles(t *testing.T) {
	for _, bad := range []string{"damaged", "dtype", "dims", "labels", "first"} {
		t.Run(bad, func(t *testing.T) {
			dir := t.TempDir()
			rng := rand.New(rand.NewPCG(1, 2))
			for m := 1; m <= 3; m++ {
				manyMonth(t, dir, 2020, m, 10, rng)
			}
			// The odd file is the second, or (first) the first in the
			// list: the columns are the ones most files declare.
			badMonth, goodMonths := "02", "0[13]"
			if bad == "first" {
				badMonth, goodMonths = "01", "0[23]"
			}
			other := filepath.Join(dir, "year=2020", "month="+badMonth, "t2m.tet")
			switch bad {
			case "damaged":
				b, _ := os.ReadFile(other)
				os.WriteFile(other, b[:len(b)/2], 0o644)
			case "dtype", "dims", "labels", "first":
				spec := tetcore.DatasetSpec{Name: "t2m", DType: tetcore.F32, Shape: []int64{10, 4, 5}, ChunkShape: []int64{7, 4, 5},
					Codec: tetcore.CodecRaw, DimNames: []string{"time", "lat", "lon"}, Labels: [][]string{nil, {"10", "20", "30", "40"}, nil}}
				if bad == "dtype" {
					spec.DType = tetcore.F64
				}
				if bad == "dims" || bad == "first" {
					spec.DimNames = []string{"time", "y", "x"}
				}
				writeTet(t, other, spec, func(i int) float32 { return 1 })
			}
			// A file without the dataset: passed over, never an error.
			spec := tetcore.DatasetSpec{Name: "other", DType: tetcore.F32, Shape: []int64{3}, ChunkShape: []int64{3}, Codec: tetcore.CodecRaw}
			os.MkdirAll(filepath.Join(dir, "year=2020", "month=09"), 0o755)
			writeTet(t, filepath.Join(dir, "year=2020", "month=09", "x.tet"), spec, func(i int) float32 { return 1 })

			db, sess := openDB(t, nil)
			var warnings []string
			sess.Warn = func(m string) { warnings = append(warnings, m) }
			glob := dir + "/**/*.tet"
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s', 't2m')`, glob))
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s USING tet_many('%s', 't2m', 'on_error=skip')`, glob))
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE s_agg USING tet_many('%s', 't2m', 'on_error=skip', 'kind=agg')`, glob))
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s', 't2m', 'kind=agg')`, glob))
			for _, q := range []string{`SELECT count(*) FROM m`, `SELECT count FROM m_agg`} {
				_, err := db.Exec(q)
				if err == nil || !strings.Contains(err.Error(), "month="+badMonth+"/t2m.tet") {
					t.Errorf("%s over a %s file: %v, want an error naming it", q, bad, err)
				}
			}
			// Skipped: the answer is the two good files'.
			mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE g USING tet_many('%s/year=2020/month=%s/*.tet', 't2m')`, dir, goodMonths))
			want := rowsOf(t, db, `SELECT count(*) FROM g`)
			for _, q := range []string{`SELECT count(*) FROM s`, `SELECT count + null_count FROM s_agg`} {
				warnings = nil
				st := scanStats(t, sess, q, func(q string) {
					if got := rowsOf(t, db, q); !sameRows(got, want) {
						t.Errorf("%s: %v, want %v", q, got, want)
					}
				})
				if st.FilesSkipped != 1 || !strings.Contains(st.String(), "skipped_files=1") {
					t.Errorf("%s: stats %s, want skipped_files=1", q, st.String())
				}
				if len(warnings) != 1 || !strings.Contains(warnings[0], "month="+badMonth+"/t2m.tet") {
					t.Errorf("%s: warnings %q, want one naming the file", q, warnings)
				}
			}
		})
	}
}

// TestMany_aggCostlyColumns compares median, quantile, var, std, argmin
// and argmax across files with the values of the union computed here.
func TestMany_aggCostlyColumns(t *testing.T) {
	dir := t.TempDir()
	paths := manyYear(t, dir)
	db, sess := openDB(t, nil)
	nativeUnion(t, db, sess, dir, paths)
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s/**/*.tet', 't2m')`, dir))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s/**/*.tet', 't2m', 'kind=agg')`, dir))
	for _, where := range []string{"1", "lat = 1", "year = '2021' AND lon < 2"} {
		var vals []float64
		for _, r := range rowsOf(t, db, "SELECT value FROM native WHERE value IS NOT NULL AND "+where) {
			var v float64
			fmt.Sscan(r, &v)
			vals = append(vals, v)
		}
		sort.Float64s(vals)
		q := func(p float64) float64 {
			h := p * float64(len(vals)-1)
			lo := math.Floor(h)
			if int(lo)+1 >= len(vals) {
				return vals[int(lo)]
			}
			return vals[int(lo)] + (h-lo)*(vals[int(lo)+1]-vals[int(lo)])
		}
		var mean, m2 float64
		for i, v := range vals {
			d := v - mean
			mean += d / float64(i+1)
			m2 += d * (v - mean)
		}
		got := rowsOf(t, db, "SELECT median, quantile, var, std FROM m_agg('', 0.9) WHERE "+where)
		want := []string{fmt.Sprintf("%v|%v|%v|%v", q(0.5), q(0.9), m2/float64(len(vals)), math.Sqrt(m2/float64(len(vals))))} // population variance, as documented
		if !sameRowsTol(got, want, 1e-6) {
			t.Errorf("%s: %v, want %v", where, got, want)
		}
		// argmin and argmax are rowids of the cells table whose value is the extreme.
		for _, c := range []struct{ col, fn string }{{"argmin", "min"}, {"argmax", "max"}} {
			ext := rowsOf(t, db, fmt.Sprintf("SELECT value FROM m WHERE rowid = (SELECT %s FROM m_agg WHERE %s)", c.col, where))
			want := rowsOf(t, db, fmt.Sprintf("SELECT %s(value) FROM native WHERE %s", c.fn, where))
			first := rowsOf(t, db, fmt.Sprintf("SELECT min(rowid) FROM m WHERE value = (SELECT %s(value) FROM native WHERE %s) AND %s", c.fn, where, where))
			at := rowsOf(t, db, fmt.Sprintf("SELECT %s FROM m_agg WHERE %s", c.col, where))
			if !sameRows(ext, want) || !sameRows(at, first) {
				t.Errorf("%s where %s: rowid %v holds %v, want the first (%v) of %v", c.col, where, at, ext, first, want)
			}
		}
	}
}

// sameRowsTol is sameRows with a relative tolerance.
func sameRowsTol(got, want []string, tol float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := strings.Split(got[i], "|"), strings.Split(want[i], "|")
		if len(g) != len(w) {
			return false
		}
		for j := range g {
			if g[j] == w[j] {
				continue
			}
			a, err1 := strconv.ParseFloat(g[j], 64)
			b, err2 := strconv.ParseFloat(w[j], 64)
			if err1 != nil || err2 != nil || math.Abs(a-b) > tol*math.Max(1, math.Abs(b)) {
				return false
			}
		}
	}
	return true
}

// TestMany_integerAndRealLabelsFit: an axis labelled by integers in one
// file and by reals in another is one numeric label column; a label term
// on it selects by each file's own labels.
func TestMany_integerAndRealLabelsFit(t *testing.T) {
	dir := t.TempDir()
	for i, lat := range [][]string{{"10", "20", "30"}, {"10.5", "20", "30.5"}} {
		spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{3}, ChunkShape: []int64{2}, Codec: tetcore.CodecRaw,
			DimNames: []string{"lat"}, Labels: [][]string{lat}}
		writeTet(t, filepath.Join(dir, fmt.Sprintf("f%d.tet", i)), spec, func(k int) float32 { return float32(10*i + k) })
	}
	db, _ := openDB(t, nil)
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s/*.tet', 'v')`, dir))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s/*.tet', 'v', 'kind=agg')`, dir))
	for q, want := range map[string][]string{
		`SELECT lat_label, value FROM m WHERE lat_label >= 20 ORDER BY value`: {"20|1", "30|2", "20|11", "30.5|12"},
		`SELECT count, sum FROM m_agg WHERE lat_label > 10`:                   {"5|36"},
		`SELECT lat, lat_label, count FROM m_agg WHERE by = 'lat'`:            {"0|<nil>|2", "1|20|2", "2|<nil>|2"},
	} {
		if got := rowsOf(t, db, q); !sameRows(got, want) {
			t.Errorf("%s = %v, want %v", q, got, want)
		}
	}
}
