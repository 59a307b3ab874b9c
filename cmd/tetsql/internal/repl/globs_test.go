package repl

import "testing"

// TestParseMany: the glob and kind of a tet_many table are read back from
// its CREATE statement, however it is quoted and spelt.
func TestParseMany(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sql, pattern string
		agg, ok      bool
	}{
		{`CREATE VIRTUAL TABLE "t2m" USING tet_many('era5/**/*.tet', 't2m')`, "era5/**/*.tet", false, true},
		{`CREATE VIRTUAL TABLE "t2m_agg" USING tet_many('era5/**/*.tet', 't2m', 'on_error=skip', 'kind=agg')`, "era5/**/*.tet", true, true},
		{`CREATE VIRTUAL TABLE x USING tet_many('it''s, here/*.tet', 'd', ' KIND = AGG ')`, "it's, here/*.tet", true, true},
		{`create virtual table x using TET_MANY ( "x/*.tet" , 'd' )`, "x/*.tet", false, true},
		{"CREATE VIRTUAL TABLE x USING tet_many(x/*.tet, d)", "x/*.tet", false, true},
		{"CREATE VIRTUAL TABLE x USING tet_many(\n  'a/*.tet',\n  'd'\n)", "a/*.tet", false, true},
		{`CREATE VIRTUAL TABLE x USING tet('a.tet', 'd')`, "", false, false},
		{`CREATE VIRTUAL TABLE x USING tet_many()`, "", false, false},
		{`CREATE TABLE tet_many(a)`, "", false, false},
	} {
		p, agg, ok := parseMany(tc.sql)
		if p != tc.pattern || agg != tc.agg || ok != tc.ok {
			t.Errorf("parseMany(%q) = %q, %v, %v; want %q, %v, %v", tc.sql, p, agg, ok, tc.pattern, tc.agg, tc.ok)
		}
	}
}
