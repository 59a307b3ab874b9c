package vtab_test

import (
	"os"
	"slices"
	"testing"
)

// TestRev_aggLikePrefixOnFile: a LIKE with a literal prefix (the way
// one selects a directory) on the aggregate table. SQLite re-checks such
// a LIKE on every output row even when xBestIndex omits it, and a merged
// row's file column is NULL when its files differ: no row comes out.
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
		// No file matches: an ungrouped aggregate still has its one row.
		{`SELECT count FROM m_agg WHERE month LIKE 'x%'`, `SELECT count(value) FROM native WHERE month LIKE 'x%'`},
		// GLOB with a literal prefix: SQLite derives year >= '20%' AND
		// year < '20&' (TEXT), which the table refuses as undecidable.
		{`SELECT count FROM m_agg WHERE year GLOB '20%'`, `SELECT count(value) FROM native WHERE year GLOB '20%'`},
		{`SELECT count FROM m_agg WHERE month GLOB 'x*'`, `SELECT count(value) FROM native WHERE month GLOB 'x*'`},
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
