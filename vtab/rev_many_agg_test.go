package vtab_test

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestRev_aggLikePrefixOnFile: a LIKE with a literal prefix (the way
// one selects a directory) on the aggregate table. SQLite re-checks such
// a LIKE on every output row even when xBestIndex omits it, so a merged
// row shows its first file's value there, not NULL.
func TestRev_aggLikePrefixOnFile(t *testing.T) {
	// A directory without LIKE wildcards in its name, so that the whole
	// prefix is literal.
	dir, err := os.MkdirTemp("", "revlike")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	run, _ := revSetupIn(t, dir)
	pairs := []struct{ many, native string }{
		{`SELECT count, sum FROM m_agg WHERE file LIKE '` + dir + `/year=2020/%'`,
			`SELECT count(value), sum(value) FROM native WHERE file LIKE '` + dir + `/year=2020/%'`},
		{`SELECT lat, count FROM m_agg WHERE by = 'lat' AND file LIKE '` + dir + `/year=2021/%'`,
			`SELECT lat, count(value) FROM native WHERE file LIKE '` + dir + `/year=2021/%' GROUP BY lat`},
		{`SELECT year, count FROM m_agg WHERE by = 'year' AND file LIKE '` + dir + `/%'`,
			`SELECT year, count(value) FROM native WHERE file LIKE '` + dir + `/%' GROUP BY year`},
		{`SELECT count FROM m_agg WHERE year GLOB '202*'`, `SELECT count(value) FROM native WHERE year GLOB '202*'`},
		{`SELECT month, count FROM m_agg WHERE by = 'month' AND month GLOB '1*'`, `SELECT month, count(value) FROM native WHERE month GLOB '1*' GROUP BY month`},
	}
	for _, p := range pairs {
		got, err1 := run(p.many)
		want, err2 := run(p.native)
		slices.Sort(got)
		slices.Sort(want)
		if err1 != nil || err2 != nil || !sameRows(got, want) {
			t.Errorf("%s\n got %v %v\nwant %v %v", p.many, got, err1, want, err2)
		}
	}
}

// TestRev_aggEmptyFileGroups: grouping by file or a hive key shows a
// group (count 0) for every kept file whose elements the other terms all
// exclude; grouping by a dim (one file or many) shows none, nor does
// GROUP BY.
func TestRev_aggEmptyFileGroups(t *testing.T) {
	run, _ := revSetup(t)
	pairs := []struct{ many, native string }{
		{`SELECT month, count FROM m_agg WHERE by = 'month' AND time_label = '2020-11-14'`,
			`SELECT month, count(value) FROM native WHERE time_label = '2020-11-14' GROUP BY month`},
		{`SELECT year, count FROM m_agg WHERE by = 'year' AND value > 1000`,
			`SELECT year, count(value) FROM native WHERE value > 1000 GROUP BY year`},
		{`SELECT file, count FROM m_agg WHERE by = 'file' AND time >= 30`,
			`SELECT file, count(value) FROM native WHERE time >= 30 GROUP BY file`},
		{`SELECT lat, count FROM m_agg WHERE by = 'lat' AND value > 1000`,
			`SELECT lat, count(value) FROM native WHERE value > 1000 GROUP BY lat`},
	}
	for _, p := range pairs {
		got, err1 := run(p.many)
		want, err2 := run(p.native)
		slices.Sort(got)
		slices.Sort(want)
		if err1 != nil || err2 != nil || !sameRows(got, want) {
			t.Errorf("%s\n got %v %v\nwant %v %v", p.many, trim(got), err1, trim(want), err2)
		}
	}
}

// TestRev_aggPatternNoFile: documented edges of LIKE and GLOB on an
// aggregate's file columns. A LIKE no file matches gives no row (SQLite
// re-tests the LIKE on the one ungrouped row, which has no file); a
// GLOB whose literal prefix makes SQLite derive a range the table cannot
// decide exactly ('20%' against a numeric-looking year) is refused.
func TestRev_aggPatternNoFile(t *testing.T) {
	run, _ := revSetup(t)
	if got, err := run(`SELECT count FROM m_agg WHERE month LIKE 'x%'`); err != nil || len(got) != 0 {
		t.Errorf("LIKE 'x%%': %v %v, want no row", got, err)
	}
	// GLOB is not tested again on the output: the one row, empty.
	if got, err := run(`SELECT count FROM m_agg WHERE month GLOB 'x*'`); err != nil || !sameRows(got, []string{"0"}) {
		t.Errorf("GLOB 'x*': %v %v, want the one row, count 0", got, err)
	}
	if got, err := run(`SELECT count FROM m_agg WHERE year GLOB '20%'`); err == nil || !strings.Contains(err.Error(), "cannot decide") {
		t.Errorf("year GLOB '20%%': %v %v, want an error", got, err)
	}
}
