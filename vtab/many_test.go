package vtab_test

import (
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// manyMonth writes dir/year=Y/month=MM/t2m.tet: dataset t2m, f32
// (time, lat, lon) with days×4×5 elements in chunks of 7 days, time
// labelled by date and lat by number, some values NaN.
func manyMonth(t testing.TB, dir string, year, month, days int, rng *rand.Rand) string {
	t.Helper()
	sub := filepath.Join(dir, fmt.Sprintf("year=%d", year), fmt.Sprintf("month=%02d", month))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sub, "t2m.tet")
	var times []string
	for d := range days {
		times = append(times, fmt.Sprintf("%d-%02d-%02d", year, month, d+1))
	}
	spec := tetcore.DatasetSpec{Name: "t2m", DType: tetcore.F32, Shape: []int64{int64(days), 4, 5},
		ChunkShape: []int64{7, 4, 5}, Codec: tetcore.CodecZstd, DimNames: []string{"time", "lat", "lon"},
		Labels: [][]string{times, {"10", "20", "30", "40"}, nil}}
	writeTet(t, path, spec, func(i int) float32 {
		if rng.IntN(50) == 0 {
			return float32(math.NaN())
		}
		return float32(math.Round(rng.NormFloat64()*1000) / 100)
	})
	return path
}

// writeTet writes a one-dataset f32 (or, when spec says so, f64) file.
func writeTet(t testing.TB, path string, spec tetcore.DatasetSpec, value func(i int) float32) {
	t.Helper()
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddDataset(spec); err != nil {
		t.Fatal(err)
	}
	n := 1
	for _, s := range spec.Shape {
		n *= int(s)
	}
	data := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(value(i)))
	}
	if spec.DType == tetcore.F64 {
		data = make([]byte, 8*n)
		for i := range n {
			binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(float64(value(i))))
		}
	}
	if err := w.WriteDataset(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// manyYear writes the monthly files of one year and a half (18 files of
// 28 to 31 days) under dir.
func manyYear(t testing.TB, dir string) []string {
	rng := rand.New(rand.NewPCG(7, 18))
	var paths []string
	for m := range 18 {
		y, mo := 2020+m/12, m%12+1
		paths = append(paths, manyMonth(t, dir, y, mo, 28+m%4, rng))
	}
	return paths
}

// nativeUnion copies every file's cells, with the file's path and hive
// values, into the native table main.native, attaching one file at a
// time.
func nativeUnion(t testing.TB, db *sql.DB, sess *vtab.Session, dir string, paths []string) {
	t.Helper()
	mustExec(t, db, `CREATE TABLE main.native(file TEXT, year TEXT, month TEXT, time INTEGER, lat INTEGER, lon INTEGER,
		time_label TEXT, lat_label INTEGER, value FLOAT)`)
	for _, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		year, month := strings.TrimPrefix(parts[0], "year="), strings.TrimPrefix(parts[1], "month=")
		h, err := sess.Registry.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range vtab.SetupSQL("one", p, h.Source(), sess) {
			mustExec(t, db, s)
		}
		h.Close()
		mustExec(t, db, `INSERT INTO main.native SELECT ?, ?, ?, time, lat, lon, time_label, lat_label, value FROM one.t2m`,
			dir+"/"+filepath.ToSlash(rel), year, month)
		mustExec(t, db, `DETACH DATABASE one`)
	}
}

func mustExec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// sameRows compares two results row by row, numbers to a relative 1e-9.
func sameRows(got, want []string) bool { return sameRowsTol(got, want, 1e-9) }

// TestMany_matchesUnionOfFiles runs queries over a glob and the same
// queries over a native table holding the union of the files' cells.
func TestMany_matchesUnionOfFiles(t *testing.T) {
	dir := t.TempDir()
	paths := manyYear(t, dir)
	db, sess := openDB(t, nil)
	nativeUnion(t, db, sess, dir, paths)
	glob := dir + "/**/*.tet"
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE main.m USING tet_many('%s', 't2m')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE main.m_agg USING tet_many('%s', 't2m', 'kind=agg')`, glob))
	mustExec(t, db, `CREATE TABLE main.nums(x INTEGER)`)
	mustExec(t, db, `INSERT INTO main.nums VALUES (1), (2), (11), (2021)`)
	pairs := []struct{ many, native string }{
		// A join hands the file terms an INTEGER whose comparison with
		// TEXT takes numeric affinity ('01' = 1): files must not be pruned
		// by the TEXT reading alone.
		{`SELECT count(*), sum(value) FROM m AS a JOIN nums ON a.month = nums.x`, ``},
		{`SELECT count(*) FROM m AS a JOIN nums ON a.year = nums.x`, ``},
		{`SELECT nums.x, count(*) FROM nums JOIN m AS a ON a.month > nums.x GROUP BY nums.x ORDER BY 1`, ``},
		{`SELECT count(*), sum(value), min(value), max(value), count(value) FROM m`, ``},
		{`SELECT lat, count(*), sum(value) FROM m GROUP BY lat ORDER BY lat`, ``},
		{`SELECT year, month, count(value), min(value) FROM m GROUP BY year, month ORDER BY 1, 2`, ``},
		{`SELECT file, count(*) FROM m WHERE month = '03' GROUP BY file ORDER BY file`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE year = 2021 AND lat = 2`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE file LIKE '%MONTH=1%' AND lon BETWEEN 1 AND 3`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE time_label >= '2020-03-05' AND time_label < '2020-07'`, ``},
		{`SELECT count(*) FROM m WHERE value > 5 AND month IN ('01', '02', '07')`, ``},
		{`SELECT time, lat, lon, value FROM m WHERE file = '` + dir + `/year=2020/month=05/t2m.tet' AND time = 3 ORDER BY lat, lon`, ``},
		{`SELECT count(*) FROM m WHERE year > '2020' OR lat_label = 30`, ``},
		{`SELECT time_label, avg(value) FROM m WHERE lat_label = 20 GROUP BY time_label ORDER BY 1`, ``},
		{`SELECT count, sum, min, max, null_count FROM m_agg`, `SELECT count(value), sum(value), min(value), max(value), count(*) - count(value) FROM native`},
		{`SELECT lat, lat_label, count, sum, mean FROM m_agg WHERE by = 'lat'`, `SELECT lat, lat_label, count(value), sum(value), avg(value) FROM native GROUP BY lat ORDER BY lat`},
		{`SELECT year, month, count, max FROM m_agg WHERE by = 'year,month'`, `SELECT year, month, count(value), max(value) FROM native GROUP BY year, month ORDER BY year, month`},
		{`SELECT month, lon, count, min FROM m_agg WHERE by = 'month,lon' AND year = '2020'`, `SELECT month, lon, count(value), min(value) FROM native WHERE year = '2020' GROUP BY month, lon ORDER BY month, lon`},
		{`SELECT count, sum FROM m_agg WHERE file LIKE '%month=0%' AND lat >= 2`, `SELECT count(value), sum(value) FROM native WHERE file LIKE '%month=0%' AND lat >= 2`},
		{`SELECT count, sum FROM m_agg WHERE month IN ('02', '11') AND value > 1`, `SELECT count(value), sum(value) FROM native WHERE month IN ('02', '11') AND value > 1`},
		{`SELECT time, count FROM m_agg WHERE by = 'time' AND year = '2021'`, `SELECT time, count(value) FROM native WHERE year = '2021' GROUP BY time ORDER BY time`},
	}
	for _, p := range pairs {
		native := p.native
		if native == "" {
			native = strings.NewReplacer("FROM m ", "FROM native ", "FROM m_agg", "FROM native").Replace(p.many + " ")
		}
		got, want := rowsOf(t, db, p.many), rowsOf(t, db, native)
		if !sameRows(got, want) {
			t.Errorf("%s\n got %v\nwant %v", p.many, trim(got), trim(want))
		}
	}
}

func trim(rows []string) []string {
	if len(rows) > 6 {
		return append(rows[:6:6], fmt.Sprintf("… (%d rows)", len(rows)))
	}
	return rows
}
