package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
)

// refusedStatements are statements safe mode must refuse, with the name
// the error gives. Every one either writes a file, opens a path, loads
// code, writes data or changes what later statements see. %s is a
// directory the statement would write into.
var refusedStatements = []struct{ q, what string }{
	{"ATTACH '%s/x.db' AS x", "ATTACH"},
	{"ATTACH ':memory:' AS m", "ATTACH"},
	{"DETACH demo", "DETACH"},
	{"VACUUM", "VACUUM"},
	{"VACUUM INTO '%s/v.db'", "VACUUM"},
	{"  /* c */ vacuum main INTO '%s/v2.db'", "VACUUM"},
	{"CREATE VIRTUAL TABLE temp.p USING tet('/etc/passwd', tet_file)", "CREATE VIRTUAL TABLE"},
	{"CREATE VIRTUAL TABLE p USING tet('%s/none.tet', tet_file)", "CREATE VIRTUAL TABLE"},
	{"CREATE VIRTUAL TABLE temp.r USING rtree(id, a, b)", "CREATE VIRTUAL TABLE"},
	{"CREATE TEMP VIEW temperature AS SELECT 1 AS value", "CREATE TEMP VIEW"},
	{"CREATE TEMPORARY VIEW v AS SELECT 1", "CREATE TEMP VIEW"},
	{"CREATE VIEW v AS SELECT 1", "CREATE VIEW"},
	{"CREATE TABLE t(x)", "CREATE TABLE"},
	{"CREATE TEMP TABLE t(x)", "CREATE TEMP TABLE"},
	{"CREATE TABLE t AS SELECT * FROM temperature", "CREATE TABLE"},
	{"CREATE INDEX i ON temperature(value)", "CREATE INDEX"},
	{"CREATE TEMP TRIGGER tr AFTER INSERT ON sqlite_master BEGIN SELECT 1; END", "CREATE TEMP TRIGGER"},
	{"DROP TABLE temperature", "DROP TABLE"},
	{"DROP TABLE demo.temperature", "DROP TABLE"},
	{"WITH x AS (SELECT 1) INSERT INTO temperature(value) SELECT * FROM x", "INSERT"},
	{"SELECT 1; CREATE TEMP VIEW v AS SELECT 1", "schema change"},
	{"EXPLAIN CREATE TEMP VIEW v AS SELECT 1", "schema change"},
	{"EXPLAIN ATTACH '%s/e.db' AS e", "ATTACH"},
	{"SELECT * FROM pragma_user_version", "PRAGMA user_version"},
	{"DROP VIEW IF EXISTS v", "DROP VIEW"},
	{"ALTER TABLE temperature RENAME TO t2", "ALTER TABLE"},
	{"INSERT INTO temperature(value) VALUES (1)", "INSERT"},
	{"UPDATE temperature SET value = 1", "UPDATE"},
	{"DELETE FROM temperature", "DELETE"},
	{"REINDEX", "REINDEX"},
	{"ANALYZE", "ANALYZE"},
	{"PRAGMA writable_schema=1", "PRAGMA writable_schema"},
	{"PRAGMA temp_store_directory='%s'", "PRAGMA temp_store_directory"},
	{"PRAGMA temp_store=memory", "PRAGMA temp_store"},
	{"PRAGMA journal_mode=WAL", "PRAGMA journal_mode"},
	{"PRAGMA hard_heap_limit=1", "PRAGMA hard_heap_limit"},
	{"PRAGMA soft_heap_limit=1", "PRAGMA soft_heap_limit"},
	{"PRAGMA cache_size=-1000000", "PRAGMA cache_size"},
	{"PRAGMA user_version=7", "PRAGMA user_version"},
	{"PRAGMA query_only=0", "PRAGMA query_only"},
	{"PRAGMA trusted_schema=1", "PRAGMA trusted_schema"},
	{"PRAGMA optimize", "PRAGMA optimize"},
	{"SELECT load_extension('x')", "load_extension"},
	{"SELECT load_extension('%s/x.so', 'init')", "load_extension"},
	{"SELECT value FROM temperature WHERE load_extension('x') IS NULL", "load_extension"},
	{"SELECT * FROM tet_files('%s/*')", "tet_files"},
	{"SELECT count(*) FROM tet_files('/etc/*')", "tet_files"},
	{"SELECT 1 FROM main.TET_FILES('/etc/passwd')", "tet_files"},
	{"SELECT path FROM tet_files WHERE pattern = '/etc/*'", "tet_files"},
}

// TestSafe_refuses runs every refused statement through database/sql on
// a safe-mode connection: each fails with "not allowed in safe mode: X",
// nothing appears in the directory it names, and the connection answers
// the next query from the file, not from anything the statement made.
func TestSafe_refuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, conn := openConn(t, "demo=testdata/demo.tet?safe=1")
	ctx := context.Background()
	for _, tc := range refusedStatements {
		q := strings.ReplaceAll(tc.q, "%s", dir)
		for _, how := range []string{"exec", "query", "prepare"} {
			var err error
			switch how {
			case "exec":
				_, err = conn.ExecContext(ctx, q)
			case "query":
				var rows interface{ Close() error }
				rows, err = conn.QueryContext(ctx, q)
				if err == nil {
					rows.Close()
				}
			case "prepare": // some are refused only when run (VACUUM)
				st, perr := conn.PrepareContext(ctx, q)
				if err = perr; err == nil {
					_, err = st.ExecContext(ctx)
					st.Close()
				}
			}
			want := "not allowed in safe mode: " + tc.what
			var nae *tetsql.NotAllowedError
			if !errors.Is(err, tetsql.ErrNotAllowed) || !errors.As(err, &nae) || err.Error() != want {
				t.Errorf("%s %q: got %v, want %q", how, q, err, want)
			}
		}
		// The authorizer alone, without the check of the leading
		// keyword: the statement comes second. DROP VIEW IF EXISTS and
		// REINDEX of nothing are no-ops SQLite asks no one about; an
		// index or trigger needs a real table, of which a safe-mode
		// connection has none, so SQLite refuses those itself first.
		if tc.q != "DROP VIEW IF EXISTS v" && tc.q != "REINDEX" && !strings.HasPrefix(tc.q, "CREATE INDEX") && !strings.HasPrefix(tc.q, "CREATE TEMP TRIGGER") {
			if _, err := conn.ExecContext(ctx, "SELECT 1; "+q); !errors.Is(err, tetsql.ErrNotAllowed) {
				t.Errorf("second statement %q: %v", q, err)
			}
		}
		if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
			t.Fatalf("after %q the directory holds %v (%v)", q, ents, err)
		}
		var n int
		var avg float64
		if err := conn.QueryRowContext(ctx, "SELECT count(*), avg(value) FROM temperature").Scan(&n, &avg); err != nil || n != 366*50 {
			t.Fatalf("after %q: %d rows, %v", q, n, err)
		}
	}
}

// TestSafe_refusedWorkOutsideSafeMode shows the refusals are safe mode's:
// without it the same statements compile (most of them run).
func TestSafe_refusedWorkOutsideSafeMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, q := range []string{"ATTACH ':memory:' AS m", "VACUUM INTO '%s/v.db'", "CREATE TEMP VIEW temperature AS SELECT 1 AS value", "PRAGMA temp_store=memory", "CREATE TEMP TABLE t(x)"} {
		_, conn := openConn(t, "demo=testdata/demo.tet")
		q = strings.ReplaceAll(q, "%s", dir)
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Errorf("%q outside safe mode: %v", q, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "v.db")); err != nil {
		t.Errorf("VACUUM INTO outside safe mode wrote nothing: %v", err)
	}
}

// TestSafe_allows runs reading statements on a safe-mode connection and
// on a normal one: the answers are the same.
func TestSafe_allows(t *testing.T) {
	t.Parallel()
	_, safe := openConn(t, "demo=testdata/demo.tet?safe=1")
	_, plain := openConn(t, "demo=testdata/demo.tet")
	ctx := context.Background()
	for _, q := range []string{
		"SELECT count(*), sum(value) FROM temperature",
		"SELECT station_label, avg(value) FROM demo.temperature GROUP BY 1 ORDER BY 2 DESC LIMIT 3",
		"WITH m AS (SELECT time_label, max(value) AS hi FROM temperature GROUP BY 1) SELECT count(*), max(hi) FROM m",
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 100) SELECT sum(x) FROM c",
		"SELECT station_label, value, rank() OVER (PARTITION BY station_label ORDER BY value DESC) FROM temperature WHERE time_label = '2024-07-01' ORDER BY 1 LIMIT 5",
		"SELECT time_label, count, mean FROM temperature_agg('time') ORDER BY time_label LIMIT 3",
		"SELECT name FROM tet_datasets ORDER BY 1",
		"SELECT json_extract(tet_last_scan(), '$.rows') IS NOT NULL",
		"SELECT key, value FROM json_each('[1,2,3]')",
		"SELECT name, type FROM pragma_table_info('temperature') ORDER BY cid",
		"PRAGMA table_info(temperature)",
		"SELECT count(*) FROM pragma_function_list WHERE name = 'abs'",
		"PRAGMA database_list",
		"SELECT upper('a') || printf('%05d', 7) || hex(zeroblob(2))",
		"EXPLAIN QUERY PLAN SELECT * FROM temperature WHERE station_label = 'Oslo'",
	} {
		got, err := allRows(ctx, safe, q)
		if err != nil {
			t.Errorf("%q in safe mode: %v", q, err)
			continue
		}
		want, err := allRows(ctx, plain, q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if got != want || got == "" {
			t.Errorf("%q: safe mode %q, plain %q", q, got, want)
		}
	}
	tx, err := safe.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM tet_dims").Scan(&n); err != nil || n == 0 {
		t.Errorf("in a transaction: %d, %v", n, err)
	}
	if err := tx.Commit(); err != nil {
		t.Errorf("commit: %v", err)
	}
}

// allRows renders the rows of q as text.
func allRows(ctx context.Context, conn *sql.Conn, q string) (string, error) {
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		fmt.Fprintln(&b, vals...)
	}
	return b.String(), rows.Err()
}

// TestSafe_programAttach: the program's own Conn.Attach works in safe
// mode (the program is trusted; SQL is not), and SQL still cannot
// attach or detach.
func TestSafe_programAttach(t *testing.T) {
	t.Parallel()
	_, conn := openConn(t, "demo=testdata/demo.tet?safe=1")
	ctx := context.Background()
	err := conn.Raw(func(dc any) error {
		return dc.(*tetsql.Conn).Attach(ctx, "s", filepath.Join("testdata", "reference", "sample.tet"))
	})
	if err != nil {
		t.Fatalf("Attach in safe mode: %v", err)
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM s.temperature").Scan(&n); err != nil || n != 6 {
		t.Fatalf("the attached file: %d rows, %v", n, err)
	}
	for _, q := range []string{"DETACH s", "ATTACH ':memory:' AS m"} {
		if _, err := conn.ExecContext(ctx, q); !errors.Is(err, tetsql.ErrNotAllowed) {
			t.Errorf("%q after Attach: %v", q, err)
		}
	}
}
