package vtab_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// revSetup builds the year-and-a-half of monthly files, the native union
// and the many tables m and m_agg.
func revSetup(t *testing.T) (run func(q string) ([]string, error), dir string) {
	return revSetupIn(t, t.TempDir())
}

// revSetupIn is revSetup with the files under dir.
func revSetupIn(t *testing.T, dir string) (run func(q string) ([]string, error), _ string) {
	paths := manyYear(t, dir)
	db, sess := openDB(t, nil)
	nativeUnion(t, db, sess, dir, paths)
	glob := dir + "/**/*.tet"
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE main.m USING tet_many('%s', 't2m')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE main.m_agg USING tet_many('%s', 't2m', 'kind=agg')`, glob))
	mustExec(t, db, `CREATE TABLE main.nums(x INTEGER, s TEXT)`)
	mustExec(t, db, `INSERT INTO main.nums VALUES (1, '01'), (2, '02'), (11, '11'), (2021, '2021')`)
	return func(q string) ([]string, error) { return tryRows(db, q) }, dir
}

// TestRev_cellsProbes compares tricky cells queries over the many table
// with the same over the native union.
func TestRev_cellsProbes(t *testing.T) {
	run, dir := revSetup(t)
	qs := []string{
		`SELECT count(*), sum(value) FROM m WHERE time_label = '2020-03-05'`,
		`SELECT count(*), sum(value) FROM m WHERE time_label IN ('2020-03-05', '2021-02-28', '2020-01-01')`,
		`SELECT count(*), sum(value) FROM m WHERE time_label BETWEEN '2020-02-27' AND '2020-03-02'`,
		`SELECT count(*), sum(value) FROM m WHERE lat_label IN (10, 30) AND month = '05'`,
		`SELECT count(*), sum(value) FROM m WHERE time = 30`,
		`SELECT count(*), sum(value) FROM m WHERE time >= 28`,
		`SELECT count(*) FROM m WHERE month IN (SELECT x FROM nums)`,
		`SELECT count(*) FROM m WHERE month IN (SELECT s FROM nums)`,
		`SELECT year, month, count(*) FROM m WHERE month IN (SELECT x FROM nums) GROUP BY 1, 2 ORDER BY 1, 2`,
		`SELECT year, month, count(*) FROM m WHERE month IN (SELECT x FROM nums WHERE x < 100) AND lat = 2 GROUP BY 1, 2 ORDER BY 1, 2`,
		`SELECT count(*) FROM m WHERE month IN (1, 2, 11)`,
		`SELECT count(*) FROM m WHERE month IN (SELECT CAST(x AS TEXT) FROM nums)`,
		`SELECT count(*) FROM m WHERE month = (SELECT max(x) FROM nums WHERE x < 100)`,
		`SELECT count(*) FROM m WHERE month = CAST(2 AS INTEGER)`,
		`SELECT count(*) FROM m WHERE month = 2`,
		`SELECT count(*) FROM m WHERE month = 2.0`,
		`SELECT count(*) FROM m WHERE year = 2021.0`,
		`SELECT count(*) FROM m WHERE month > x'00'`,
		`SELECT count(*) FROM m WHERE month < x'00'`,
		`SELECT count(*) FROM m WHERE month IS NULL`,
		`SELECT count(*) FROM m WHERE month IS NOT '03'`,
		`SELECT count(*) FROM m WHERE month <> '03' AND year IS '2020'`,
		`SELECT count(*) FROM m WHERE month = '03' COLLATE NOCASE`,
		`SELECT count(*) FROM m WHERE file = upper(file) COLLATE NOCASE`,
		`SELECT count(*) FROM m WHERE file = '` + strings.ToUpper(dir) + `/YEAR=2020/MONTH=03/T2M.TET' COLLATE NOCASE`,
		`SELECT count(*) FROM m WHERE file LIKE '` + strings.ToUpper(dir) + `/YEAR=2020/%'`,
		`SELECT count(*) FROM m WHERE file GLOB '*month=1[0-2]*'`,
		`SELECT count(*) FROM m WHERE month BETWEEN '02' AND '05' AND lat = 1`,
		`SELECT count(*) FROM m WHERE month = '01' OR lat = 2`,
		`SELECT count(*) FROM m WHERE month = '01' OR month = '07'`,
		`SELECT count(*) FROM m WHERE (month = '01' AND lat = 1) OR (year = '2021' AND lon = 2)`,
		`SELECT DISTINCT month FROM m ORDER BY 1`,
		`SELECT DISTINCT year, month FROM m WHERE lat = 0 ORDER BY 1 DESC, 2 DESC`,
		`SELECT file, time, lat, lon, value FROM m ORDER BY value DESC, file, time, lat, lon LIMIT 7 OFFSET 3`,
		`SELECT file, time, lat, lon FROM m WHERE month = '04' ORDER BY time DESC, lat, lon LIMIT 5`,
		`SELECT count(*) FROM m AS a JOIN m AS b ON a.file = b.file AND a.time = b.time AND a.lat = b.lat AND a.lon = b.lon WHERE a.month = '02'`,
		`SELECT count(*), sum(a.value - b.value) FROM m AS a JOIN m AS b ON a.month = b.month AND a.year <> b.year AND a.time = b.time AND a.lat = b.lat AND a.lon = b.lon`,
		`SELECT nums.s, count(*) FROM nums JOIN m AS a ON a.month = nums.s AND a.lat = 1 GROUP BY 1 ORDER BY 1`,
		`SELECT nums.x, count(*) FROM nums LEFT JOIN m AS a ON a.month = nums.x AND a.lat = 1 GROUP BY 1 ORDER BY 1`,
		`SELECT nums.x, count(*) FROM nums JOIN m AS a ON a.year = nums.x GROUP BY 1 ORDER BY 1`,
		`SELECT nums.x, count(*) FROM nums JOIN m AS a ON a.time = nums.x AND a.year = '2020' GROUP BY 1 ORDER BY 1`,
		`SELECT count(*) FROM m WHERE value > 5 AND value < 7 AND month >= '06'`,
		`SELECT count(*) FROM m WHERE value IS NULL`,
		`SELECT count(*) FROM m WHERE value IN (SELECT value FROM m WHERE month = '01' AND lat = 0 AND lon = 0 AND time < 3)`,
		`SELECT month, count(*) FROM m WHERE rowid IN (SELECT rowid FROM m WHERE time = 1 AND lat = 1) GROUP BY 1 ORDER BY 1`,
		`SELECT count(*) FROM m WHERE month IN ('01', 1, 2.0, NULL, x'30')`,
		`SELECT count(*) FROM m WHERE month NOT IN ('01', '02')`,
		`SELECT count(*) FROM m WHERE month LIKE '0_'`,
		`SELECT count(*) FROM m WHERE month LIKE 1`,
		`SELECT count(*) FROM m WHERE year LIKE 2021`,
		`SELECT count(*) FROM m WHERE month > '1' AND month < '12'`,
		`SELECT count(*) FROM m WHERE time_label LIKE '2021-%' AND year = '2020'`,
		`SELECT count(*) FROM m WHERE lat_label = '30'`,
		`SELECT count(*) FROM m WHERE lat_label > 15 AND lat_label <= 30`,
		`SELECT count(*) FROM m WHERE lat_label IN ('10', 40)`,
	}
	for _, q := range qs {
		nq := strings.ReplaceAll(strings.ReplaceAll(q, "FROM m ", "FROM native "), "JOIN m ", "JOIN native ")
		got, err1 := run(q)
		want, err2 := run(nq)
		if err1 != nil || err2 != nil {
			t.Errorf("%s\n many err %v\n native err %v", q, err1, err2)
			continue
		}
		if !sameRows(got, want) {
			t.Errorf("%s\n got %v\nwant %v", q, trim(got), trim(want))
		}
	}
}

// TestRev_aggProbes compares the many-file aggregate table with native
// aggregates over the union.
func TestRev_aggProbes(t *testing.T) {
	run, _ := revSetup(t)
	pairs := []struct{ many, native string }{
		{`SELECT count, sum, min, max FROM m_agg WHERE time_label = '2020-03-05'`, `SELECT count(value), sum(value), min(value), max(value) FROM native WHERE time_label = '2020-03-05'`},
		{`SELECT count, sum FROM m_agg WHERE time_label IN ('2020-03-05', '2021-02-28', '2020-01-01')`, `SELECT count(value), sum(value) FROM native WHERE time_label IN ('2020-03-05', '2021-02-28', '2020-01-01')`},
		{`SELECT count, sum FROM m_agg WHERE time_label BETWEEN '2020-02-27' AND '2020-03-02'`, `SELECT count(value), sum(value) FROM native WHERE time_label BETWEEN '2020-02-27' AND '2020-03-02'`},
		{`SELECT count, sum FROM m_agg WHERE time >= 28`, `SELECT count(value), sum(value) FROM native WHERE time >= 28`},
		{`SELECT count, sum FROM m_agg WHERE time = 30`, `SELECT count(value), sum(value) FROM native WHERE time = 30`},
		{`SELECT time, count, sum FROM m_agg WHERE by = 'time' AND time >= 27`, `SELECT time, count(value), sum(value) FROM native WHERE time >= 27 GROUP BY time ORDER BY time`},
		{`SELECT lat, count, sum FROM m_agg WHERE by = 'lat' AND lat_label IN (10, 40)`, `SELECT lat, count(value), sum(value) FROM native WHERE lat_label IN (10, 40) GROUP BY lat ORDER BY lat`},
		{`SELECT count, sum FROM m_agg WHERE lat = 3`, `SELECT count(value), sum(value) FROM native WHERE lat = 3`},
		{`SELECT lat, lat_label, count FROM m_agg WHERE lat = 3`, `SELECT 3, 40, count(value) FROM native WHERE lat = 3`},
		{`SELECT file, count, sum FROM m_agg WHERE by = 'file'`, `SELECT file, count(value), sum(value) FROM native GROUP BY file ORDER BY file`},
		{`SELECT file, lat, count, sum FROM m_agg WHERE by = 'file,lat' AND month = '02'`, `SELECT file, lat, count(value), sum(value) FROM native WHERE month = '02' GROUP BY file, lat ORDER BY file, lat`},
		{`SELECT lat, file, count, sum FROM m_agg WHERE by = 'lat,file' AND month = '02'`, `SELECT lat, file, count(value), sum(value) FROM native WHERE month = '02' GROUP BY lat, file ORDER BY lat, file`},
		{`SELECT month, year, count FROM m_agg WHERE by = 'month,year'`, `SELECT month, year, count(value) FROM native GROUP BY month, year ORDER BY month, year`},
		{`SELECT year, count, mean, var FROM m_agg WHERE by = 'year'`, `SELECT year, count(value), avg(value), avg(value*value) - avg(value)*avg(value) FROM native GROUP BY year ORDER BY year`},
		{`SELECT month, count FROM m_agg WHERE by = 'month' AND month IN ('01', '12', '07')`, `SELECT month, count(value) FROM native WHERE month IN ('01', '12', '07') GROUP BY month ORDER BY month`},
		{`SELECT count FROM m_agg WHERE month IN ('01', '12') AND year = '2020'`, `SELECT count(value) FROM native WHERE month IN ('01', '12') AND year = '2020'`},
		{`SELECT count FROM m_agg WHERE file IN (SELECT file FROM native WHERE month = '03')`, `SELECT count(value) FROM native WHERE month = '03'`},
		{`SELECT count, sum FROM m_agg WHERE month > '05' AND month <= '09' AND year <> '2021'`, `SELECT count(value), sum(value) FROM native WHERE month > '05' AND month <= '09' AND year <> '2021'`},
		{`SELECT count, sum FROM m_agg WHERE value BETWEEN -2 AND 3 AND year = '2021'`, `SELECT count(value), sum(value) FROM native WHERE value BETWEEN -2 AND 3 AND year = '2021'`},
		{`SELECT count FROM m_agg WHERE file LIKE '%month=1_%'`, `SELECT count(value) FROM native WHERE file LIKE '%month=1_%'`},
		{`SELECT time, count FROM m_agg WHERE by = 'time/5' AND year = '2020'`, `SELECT time/5, count(value) FROM native WHERE year = '2020' GROUP BY time/5 ORDER BY 1`},
	}
	for _, p := range pairs {
		got, err1 := run(p.many)
		want, err2 := run(p.native)
		slices.Sort(got) // aggregate rows come in file order: compare as sets
		slices.Sort(want)
		if err1 != nil || err2 != nil {
			t.Errorf("%s\n many err %v\n native err %v", p.many, err1, err2)
			continue
		}
		if !sameRows(got, want) {
			t.Errorf("%s\n got %v\nwant %v", p.many, trim(got), trim(want))
		}
	}
}

// TestRev_aggUnconsumedFileTerms: terms on file columns reach the
// aggregate table (COLLATE NOCASE, OR of one column's values, IS NULL,
// joins) and select files exactly. Terms SQLite never offers to a table
// (an OR across columns, NOT LIKE, +month) apply to the output rows, as
// they do on one file's aggregate (docs/SQL.md): not tested here.
func TestRev_aggUnconsumedFileTerms(t *testing.T) {
	run, _ := revSetup(t)
	pairs := []struct{ many, native string }{
		{`SELECT count FROM m_agg WHERE month = '03' COLLATE NOCASE`, `SELECT count(value) FROM native WHERE month = '03' COLLATE NOCASE`},
		{`SELECT count FROM m_agg WHERE month = '03' OR month = '04'`, `SELECT count(value) FROM native WHERE month = '03' OR month = '04'`},
		{`SELECT count FROM m_agg WHERE month IS NULL`, `SELECT count(value) FROM native WHERE month IS NULL`},
		{`SELECT count FROM m_agg WHERE month IS NOT NULL`, `SELECT count(value) FROM native WHERE month IS NOT NULL`},
		// An ungrouped aggregate has its one row for every joined value,
		// as one file's does (count 0 where no file matches).
		{`SELECT nums.s, a.count FROM nums JOIN m_agg AS a ON a.month = nums.s ORDER BY 1`, `SELECT nums.s, (SELECT count(value) FROM native WHERE month = nums.s) FROM nums ORDER BY 1`},
		{`SELECT nums.s, a.count FROM nums JOIN m_agg AS a ON a.year = nums.s ORDER BY 1`, `SELECT nums.s, (SELECT count(value) FROM native WHERE year = nums.s) FROM nums ORDER BY 1`},
	}
	for _, p := range pairs {
		got, err1 := run(p.many)
		want, err2 := run(p.native)
		if err1 != nil || err2 != nil {
			t.Errorf("%s\n many err %v\n native err %v", p.many, err1, err2)
			continue
		}
		slices.Sort(got)
		slices.Sort(want)
		if !sameRows(got, want) {
			t.Errorf("%s\n got %v\nwant %v", p.many, trim(got), trim(want))
		}
	}
}
