package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
)

// TestRev2_hiveRelative: run from the root of a hive tree, a glob (or a
// file) whose first segment is key=value is a path, not ALIAS=PATH: on
// the command line, in .open and in a DSN. "year" is a valid alias, so
// "year=2020/*/x.tet" is read as the glob "2020/*/x.tet" under schema
// year, which matches nothing ("no file matches 2020/*/x.tet"), and
// "year=*/month=*/*.tet" works by accident under the schema "year". The
// command line already checks a file argument (!exists(a)); a glob
// argument, .open and the DSN do not. Not parallel: it changes the
// working directory.
func TestRev2_hiveRelative(t *testing.T) {
	root := hiveTree(t)
	t.Chdir(root)
	schema := tetsql.GlobAlias("year=*/month=*/*.tet") // the working directory's name
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"glob argument", []string{"year=2020/*/x.tet", "SELECT count(*) AS n FROM t2m"}, "n\n7\n"},
		{"glob argument, schema", []string{"year=*/month=*/*.tet", "SELECT count(*) AS n FROM " + schema + ".t2m"}, "n\n12\n"},
		{".open glob", []string{"-c", ".open year=2020/*/x.tet", "-c", "SELECT count(*) AS n FROM t2m"}, "n\n7\n"},
		{".open file", []string{"-c", ".open year=2020/month=01/x.tet", "-c", "SELECT count(*) AS n FROM x.t2m"}, "n\n3\n"},
	} {
		code, out, errs := runCLI(t, "", tc.args...)
		if code != 0 || out != tc.want {
			t.Errorf("%s: tetsql %q: exit %d, out %q, err %q; want %q", tc.name, tc.args, code, out, strings.TrimSpace(errs), tc.want)
		}
	}
	for _, dsn := range []string{"year=2020/*/x.tet", "year=2020/month=01/x.tet"} {
		db, err := sql.Open("tetsql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		err = db.QueryRow("SELECT count(*) FROM t2m").Scan(&n)
		db.Close()
		if want := map[string]int{"year=2020/*/x.tet": 7, "year=2020/month=01/x.tet": 3}[dsn]; err != nil || n != want {
			t.Errorf("DSN %q (in %s): %d rows, %v; want %d", dsn, filepath.Base(root), n, err, want)
		}
	}
}
