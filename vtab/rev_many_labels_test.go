package vtab_test

import (
	"slices"
	"testing"
)

// TestRev_aggLabelsAndCorrelated: label columns of grouped and pinned
// axes across files, case and spaces in by, and the aggregate table in
// correlated subqueries.
func TestRev_aggLabelsAndCorrelated(t *testing.T) {
	run, _ := revSetup(t)
	pairs := []struct{ many, native string }{
		{`SELECT month, time, time_label, count FROM m_agg WHERE by = 'month,time' AND year = '2020'`,
			`SELECT month, time, time_label, count(value) FROM native WHERE year = '2020' GROUP BY month, time`},
		{`SELECT file, lat, lat_label, time_label, count FROM m_agg WHERE by = 'file,lat' AND time = 3 AND year = '2021'`,
			`SELECT file, lat, lat_label, time_label, count(value) FROM native WHERE time = 3 AND year = '2021' GROUP BY file, lat`},
		{`SELECT MONTH, count FROM m_agg WHERE by = ' Month , month ' AND year = '2021'`,
			`SELECT month, count(value) FROM native WHERE year = '2021' GROUP BY month`},
		{`SELECT lat, lat_label, count FROM m_agg WHERE by = 'lat'`,
			`SELECT lat, lat_label, count(value) FROM native GROUP BY lat`},
		{`SELECT x.month, (SELECT count FROM m_agg WHERE m_agg.month = x.month AND m_agg.year = '2020') FROM (SELECT DISTINCT month FROM native) AS x`,
			`SELECT x.month, (SELECT count(value) FROM native WHERE native.month = x.month AND native.year = '2020') FROM (SELECT DISTINCT month FROM native) AS x`},
		{`SELECT x.file, (SELECT sum FROM m_agg WHERE m_agg.file = x.file AND lat = 1) FROM (SELECT DISTINCT file FROM native) AS x`,
			`SELECT x.file, (SELECT sum(value) FROM native WHERE native.file = x.file AND lat = 1) FROM (SELECT DISTINCT file FROM native) AS x`},
		{`SELECT month, time, count FROM m_agg WHERE by = 'month,time/10' AND year = '2021'`,
			`SELECT month, time/10, count(value) FROM native WHERE year = '2021' GROUP BY month, time/10`},
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
