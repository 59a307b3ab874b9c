package route

import "testing"

func fakeCatalog(schema, name string) (Table, bool) {
	if name != "t2m" && name != "T2M" || schema != "" && schema != "era5" {
		return Table{}, false
	}
	return Table{Schema: "era5", Agg: "t2m_agg", Dims: []string{"time", "lat", "lon"},
		Labels: []string{"time_label", "lat_label", ""}, AggColumns: []string{"time", "lat", "lon", "time_label", "lat_label", "count", "null_count", "sum", "mean", "min", "max", "var", "std", "median", "quantile", "argmin", "argmax", "by", "q", "value"},
		TextLabels: []bool{true, true, false}, UniqueLabels: []bool{false, true, false}, Sizes: []int64{730, 181, 360}, AggValue: true}, true
}

func TestRewrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT time, avg(value) FROM t2m GROUP BY time",
			`SELECT time, max("t2m"."mean") AS "avg(value)" FROM "era5"."t2m_agg"('time') AS "t2m" GROUP BY time`},
		{"select count(*) from era5.t2m where time between 3 and 9 and value > 300;",
			`SELECT ifnull(max("t2m"."count" + "t2m"."null_count"), 0) AS "count(*)" FROM "era5"."t2m_agg"('') AS "t2m" WHERE time between 3 and 9 and value > 300`},
		{"SELECT x.lat_label, round(AVG(x.value), 1) m, min(value) AS lo FROM t2m x WHERE lon IN (1, ?, -2) GROUP BY x.lat ORDER BY m DESC LIMIT 3",
			`SELECT x.lat_label, round ( max("x"."mean") , 1 ) AS m, max("x"."min") AS lo FROM "era5"."t2m_agg"('lat') AS "x" WHERE lon IN (1, ?, -2) GROUP BY x.lat ORDER BY m DESC LIMIT 3`},
		{"SELECT time, lat, count(value) FROM t2m WHERE time_label >= '2024-01-01' GROUP BY time, lat HAVING count(value) > 2",
			`SELECT time, lat, ifnull(max("t2m"."count"), 0) AS "count(value)" FROM "era5"."t2m_agg"('time,lat') AS "t2m" WHERE time_label >= '2024-01-01' GROUP BY time, lat HAVING ifnull(max("t2m"."count"), 0) > 2`},
		{"SELECT time FROM t2m GROUP BY time", `SELECT time FROM "era5"."t2m_agg"('time') AS "t2m" GROUP BY time`},
		// Left alone: each would change the meaning or is not understood.
		{"SELECT time FROM t2m WHERE time = 3", ""},
		{"SELECT time, avg(value) FROM t2m GROUP BY time_label", ""}, // labels that may repeat
		{"SELECT lat_label, avg(value) FROM t2m GROUP BY lat_label",
			`SELECT lat_label, max("t2m"."mean") AS "avg(value)" FROM "era5"."t2m_agg"('lat') AS "t2m" GROUP BY lat_label`},
		{"SELECT lat, avg(value) FROM t2m GROUP BY time", ""},
		{"SELECT time, value FROM t2m GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE lat != 3 GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE lat = 3 OR lat = 4 GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE rowid > 3 GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE lat = lon GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE lat NOT BETWEEN 1 AND 2 GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE lat IN (SELECT 1) GROUP BY time", ""},
		{"SELECT time, count(DISTINCT value) FROM t2m GROUP BY time", ""},
		{"SELECT time, sum(value) FROM t2m GROUP BY time", ""}, // Sum not allowed by the catalog
		{"SELECT time, total(value) FROM t2m GROUP BY time", ""},
		{"SELECT time, avg(value) OVER () FROM t2m GROUP BY time", ""},
		{"SELECT * FROM t2m GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m, other GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m JOIN other USING (time) GROUP BY time", ""},
		{"SELECT time, avg(value) FROM other GROUP BY time", ""},
		{"SELECT time, avg(value) FROM main.t2m GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m GROUP BY time; SELECT 1", ""},
		{"SELECT time, avg(value) FROM t2m GROUP BY time UNION SELECT 1, 2", ""},
		{"SELECT time, avg(value) FROM t2m GROUP BY time, time", ""},
		{"SELECT avg(value) FROM t2m ORDER BY 1", ""},
		{"SELECT avg(value) + lat FROM t2m", ""},
		{"SELECT time, avg(value) FROM t2m GROUP BY time HAVING lat > 1", ""},
		{"SELECT time, avg(value) FROM t2m y GROUP BY t2m.time", ""},
		{"SELECT time, myagg(value) FROM t2m GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE time = x'01' GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE time = 'unterminated GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE time_label = 3 GROUP BY time", ""},
		{"SELECT time, avg(value) FROM t2m WHERE time_label = ? GROUP BY time", ""},
		{"SELECT time, lat, lon, avg(value) FROM t2m GROUP BY time, lat, lon", ""},
		{"SELECT time, avg(value) FROM t2m WHERE value IN (1, 2) GROUP BY time", ""},
		{"SELECT time, min(value) AS max FROM t2m GROUP BY time HAVING max > 0", ""}, // max would name the companion's column
		{"SELECT time, count(*) AS \"Count\" FROM t2m GROUP BY time HAVING count > 18", ""},
		{"SELECT time, avg(value) AS q FROM t2m GROUP BY time", ""},
		{"SELECT lat AS time, avg(value) FROM t2m GROUP BY lat", `SELECT lat AS time, max("t2m"."mean") AS "avg(value)" FROM "era5"."t2m_agg"('lat') AS "t2m" GROUP BY lat`},
		{"WITH a AS (SELECT 1) SELECT time, avg(value) FROM t2m GROUP BY time", ""},
	} {
		got, ok := Rewrite(tc.in, fakeCatalog)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("Rewrite(%q)\n got %v %q\nwant %q", tc.in, ok, got, tc.want)
		}
	}
}

// FuzzRewrite checks that no statement makes Rewrite panic, and that a
// rewrite is itself a statement Rewrite reads (lexes) without trouble.
func FuzzRewrite(f *testing.F) {
	for _, s := range []string{
		"SELECT time, avg(value) FROM t2m GROUP BY time",
		"select count(*) from era5.t2m where time between 3 and 9 and value > 300;",
		"SELECT x.lat_label, round(AVG(x.value), 1) m FROM t2m x WHERE lon IN (1, ?, -2) GROUP BY x.lat ORDER BY m DESC LIMIT 3",
		"SELECT time, count(value) FROM t2m WHERE time_label >= '2024-01-01' GROUP BY time HAVING count(value) > 2",
		"SELECT \"time\", [lat], `lon` FROM t2m /* c */ GROUP BY time -- x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		rw, ok := Rewrite(q, fakeCatalog)
		if !ok {
			return
		}
		if _, ok := lex(rw); !ok {
			t.Fatalf("Rewrite(%q) = %q, which does not lex", q, rw)
		}
	})
}
