package tetsql_test

import (
	"context"
	"os"
	"strings"
	"testing"
)

// FuzzSafeMode runs arbitrary SQL on one safe-mode connection and checks
// that nothing got through: no file appeared in the directory the seeds
// name, no schema was attached or detached, and no object was created in
// main or temp. The seeds are the refused statements (CI runs only them).
func FuzzSafeMode(f *testing.F) {
	for _, tc := range refusedStatements {
		f.Add(tc.q)
	}
	f.Add("SELECT 1; ATTACH 'x.db' AS x")
	dir := f.TempDir()
	_, conn := openConn(f, "demo=testdata/demo.tet?safe=1&statement_timeout=1s")
	ctx := context.Background()
	before, err := allRows(ctx, conn, "SELECT name, file FROM pragma_database_list WHERE name <> 'temp' ORDER BY 1")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		q = strings.ReplaceAll(q, "%s", dir)
		if rows, err := conn.QueryContext(ctx, q); err == nil {
			for rows.Next() {
			}
			rows.Close()
		}
		conn.ExecContext(ctx, q)
		if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
			t.Fatalf("%q wrote %v (%v)", q, ents, err)
		}
		after, err := allRows(ctx, conn, "SELECT name, file FROM pragma_database_list WHERE name <> 'temp' ORDER BY 1")
		if err != nil || after != before {
			t.Fatalf("%q changed the schemas: %q, was %q (%v)", q, after, before, err)
		}
		objs, err := allRows(ctx, conn, "SELECT (SELECT count(*) FROM sqlite_master) + (SELECT count(*) FROM sqlite_temp_master)")
		if err != nil || objs != "0\n" {
			t.Fatalf("%q created objects: %q (%v)", q, objs, err)
		}
	})
}
