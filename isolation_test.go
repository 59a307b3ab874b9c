package tetsql_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
)

// poolProbes are what a caller asks of a tetsql database; each answer
// is rendered as text (an error included), so that a poisoned connection
// shows as a different answer.
var poolProbes = []struct {
	name string
	run  func(ctx context.Context, db *sql.DB) string
}{
	{"sum of temperature", queryText("SELECT sum(value) FROM temperature")},
	{"datasets", queryText("SELECT count(*) FROM demo.tet_datasets")},
	{"unqualified metadata", queryText("SELECT count(*) FROM tet_datasets")},
	{"schemas", queryText("SELECT group_concat(name) FROM pragma_database_list")},
	{"schema rows in order", queryText("SELECT group_concat(name) FROM demo.sqlite_master")},
	{"LIKE", queryText("SELECT count(*) FROM demo.tet_datasets WHERE name LIKE 'TEMP%'")},
	{"temp objects", queryText("SELECT count(*) FROM temp.sqlite_master")},
	{"user_version", queryText("SELECT (SELECT user_version FROM pragma_user_version) || ',' || (SELECT * FROM pragma_application_id)")},
	{"temp table", func(ctx context.Context, db *sql.DB) string {
		// A limit such as max_page_count left on temp breaks this.
		c, err := db.Conn(ctx)
		if err != nil {
			return err.Error()
		}
		defer c.Close()
		if _, err := c.ExecContext(ctx, "CREATE TEMP TABLE probe_t AS SELECT value FROM temperature"); err != nil {
			return err.Error()
		}
		c.ExecContext(ctx, "DROP TABLE temp.probe_t")
		return "ok"
	}},
	{"main objects", queryText("SELECT count(*) FROM main.sqlite_master")},
	{"column names", func(ctx context.Context, db *sql.DB) string {
		rows, err := db.QueryContext(ctx, "SELECT t.value FROM demo.temperature AS t LIMIT 1")
		if err != nil {
			return err.Error()
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		return strings.Join(cols, ",")
	}},
	{"transaction", func(ctx context.Context, db *sql.DB) string {
		c, err := db.Conn(ctx)
		if err != nil {
			return err.Error()
		}
		defer c.Close()
		_, err1 := c.ExecContext(ctx, "BEGIN")
		_, err2 := c.ExecContext(ctx, "ROLLBACK")
		return fmt.Sprint(err1, err2)
	}},
	{"temp table", func(ctx context.Context, db *sql.DB) string {
		c, err := db.Conn(ctx)
		if err != nil {
			return err.Error()
		}
		defer c.Close()
		_, err1 := c.ExecContext(ctx, "CREATE TEMP TABLE probe(x)")
		_, err2 := c.ExecContext(ctx, "DROP TABLE probe")
		return fmt.Sprint(err1, err2)
	}},
}

func queryText(q string) func(ctx context.Context, db *sql.DB) string {
	return func(ctx context.Context, db *sql.DB) string {
		var s sql.NullString
		if err := db.QueryRowContext(ctx, q).Scan(&s); err != nil {
			return "error: " + err.Error()
		}
		return s.String
	}
}

func answers(ctx context.Context, db *sql.DB) []string {
	out := make([]string, len(poolProbes))
	for i, p := range poolProbes {
		out[i] = p.run(ctx, db)
	}
	return out
}

func openDemoPool(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("tetsql", filepath.Join("testdata", "demo.tet"))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// TestIsolation_poisonedPooledConnection: whatever caller A does to the
// one pooled connection, caller B, next on the pool, gets the answers of
// a fresh connection.
func TestIsolation_poisonedPooledConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	want := answers(ctx, openDemoPool(t))
	for _, tc := range []struct {
		name   string
		poison []string
	}{
		{"temp view shadows a table", []string{"CREATE TEMP VIEW temperature AS SELECT 1 AS value"}},
		{"temp table shadows metadata", []string{"CREATE TEMP TABLE tet_datasets(x)"}},
		{"detach", []string{"DETACH demo"}},
		{"detach and forge", []string{"DETACH demo", "ATTACH ':memory:' AS demo",
			"CREATE VIEW demo.temperature AS SELECT 1 AS value", "CREATE VIEW demo.tet_datasets AS SELECT 1 AS name"}},
		{"replace a table", []string{"DROP TABLE demo.temperature", "CREATE VIEW demo.temperature AS SELECT 1 AS value"}},
		{"object in a file's schema", []string{"CREATE TABLE demo.note(x)"}},
		{"attach", []string{"ATTACH ':memory:' AS demo2"}},
		{"main table and temp trigger", []string{"CREATE TABLE main.t(x)", "CREATE TEMP TRIGGER tr AFTER INSERT ON main.t BEGIN SELECT 1; END"}},
		{"reverse_unordered_selects", []string{"PRAGMA reverse_unordered_selects=1"}},
		{"case_sensitive_like", []string{"PRAGMA case_sensitive_like=1"}},
		{"full_column_names", []string{"PRAGMA short_column_names=0", "PRAGMA full_column_names=1"}},
		{"query_only", []string{"PRAGMA query_only=1"}},
		{"open transaction", []string{"BEGIN"}},
		{"open savepoint", []string{"SAVEPOINT s"}},
		{"user_version passed on", []string{"PRAGMA main.user_version=4242", "PRAGMA temp.user_version=4242", "PRAGMA application_id=7"}},
		{"max_page_count", []string{"PRAGMA temp.max_page_count=1", "PRAGMA main.max_page_count=1"}},
		{"pager settings", []string{"PRAGMA journal_size_limit=5", "PRAGMA temp.secure_delete=1", "PRAGMA temp.journal_mode=off", "PRAGMA wal_autocheckpoint=7"}},
		{"writable schema", []string{"PRAGMA writable_schema=ON",
			"UPDATE demo.sqlite_master SET sql = 'CREATE VIEW temperature AS SELECT 1 AS value', type = 'view' WHERE name = 'temperature'",
			"PRAGMA writable_schema=OFF"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openDemoPool(t)
			a, err := db.Conn(ctx) // caller A
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range tc.poison {
				if _, err := a.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			a.Close()
			got := answers(ctx, db) // caller B
			for i, p := range poolProbes {
				if got[i] != want[i] {
					t.Errorf("%s: %q, want %q", p.name, got[i], want[i])
				}
			}
		})
	}
}

// rawConn returns the tetsql connection the pool hands out next.
func rawConn(t *testing.T, db *sql.DB) *tetsql.Conn {
	t.Helper()
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var tc *tetsql.Conn
	c.Raw(func(dc any) error { tc = dc.(*tetsql.Conn); return nil })
	return tc
}

// TestIsolation_cleanConnectionIsReused: reading leaves a pooled
// connection as it was, so it is reused (not replaced after every use);
// a schema added with Conn.Attach belongs to it; a poisoned one is
// replaced.
func TestIsolation_cleanConnectionIsReused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDemoPool(t)
	first := rawConn(t, db)
	for _, q := range []string{"SELECT sum(value) FROM temperature", "SELECT * FROM demo.tet_dims",
		"SELECT * FROM demo.temperature_agg LIMIT 3"} {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
		}
		rows.Close()
	}
	if got := rawConn(t, db); got != first {
		t.Fatal("a connection that only read was replaced")
	}
	// Failed statements leave it as it was too.
	for _, q := range []string{"DELETE FROM demo.temperature", "SELECT nope FROM temperature", "SELECT * FROM demo.nope"} {
		if _, err := db.ExecContext(ctx, q); err == nil {
			t.Fatalf("%s succeeded", q)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	rows, err := db.QueryContext(cctx, "SELECT value FROM demo.pressure")
	if err != nil {
		t.Fatal(err)
	}
	rows.Next()
	cancel()
	for rows.Next() {
	}
	rows.Close()
	if got := rawConn(t, db); got != first {
		t.Fatal("a connection whose statements failed was replaced")
	}
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Raw(func(dc any) error {
		return dc.(*tetsql.Conn).Attach(ctx, "ref", filepath.Join("testdata", "reference", "sample.tet"))
	})
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT sum(value) FROM ref.temperature").Scan(&n); err != nil || n != 21 {
		t.Fatalf("attached schema: %d %v, want 21", n, err)
	}
	if got := rawConn(t, db); got != first {
		t.Fatal("a connection with an attached file was replaced")
	}
	if _, err := db.ExecContext(ctx, "CREATE TEMP VIEW v AS SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if got := rawConn(t, db); got == first {
		t.Fatal("a poisoned connection was reused")
	}
}

// BenchmarkResetSession measures a reuse of a pooled connection that its
// previous user left as it was (ResetSession's check, then a point
// query), against the same query on a held *sql.Conn (no reset), and
// against opening a fresh connection (what a changed one costs).
func BenchmarkResetSession(b *testing.B) {
	ctx := context.Background()
	db, err := sql.Open("tetsql", filepath.Join("testdata", "demo.tet"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	const q = "SELECT value FROM demo.temperature WHERE time = 3 AND station = 7"
	var v float64
	b.Run("pooled", func(b *testing.B) {
		for b.Loop() {
			if err := db.QueryRowContext(ctx, q).Scan(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("held", func(b *testing.B) {
		c, err := db.Conn(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		for b.Loop() {
			if err := c.QueryRowContext(ctx, q).Scan(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fresh", func(b *testing.B) {
		db.SetMaxIdleConns(0) // every use opens and sets up a connection
		defer db.SetMaxIdleConns(2)
		for b.Loop() {
			if err := db.QueryRowContext(ctx, q).Scan(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestIsolation_plainModerncConnectionHasNoModule: with tetsql
// connections open and used, a connection of the program's own
// modernc.org/sqlite database has no tet module and no tet_last_scan().
func TestIsolation_plainModerncConnectionHasNoModule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tet := openDemoPool(t)
	var sum float64
	if err := tet.QueryRowContext(ctx, "SELECT sum(value) FROM temperature").Scan(&sum); err != nil {
		t.Fatal(err)
	}
	plain, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	demo, _ := filepath.Abs(filepath.Join("testdata", "demo.tet"))
	if _, err := plain.ExecContext(ctx, "CREATE VIRTUAL TABLE temp.x USING tet('"+demo+"', tet_file)"); err == nil || !strings.Contains(err.Error(), "no such module: tet") {
		t.Errorf("CREATE VIRTUAL TABLE … USING tet on a plain connection: %v, want no such module", err)
	}
	if _, err := plain.ExecContext(ctx, "SELECT tet_last_scan()"); err == nil || !strings.Contains(err.Error(), "no such function") {
		t.Errorf("tet_last_scan() on a plain connection: %v, want no such function", err)
	}
}

// TestIsolation_nextUserSeesNoScans: the scan statistics of a pooled
// connection's previous user (tet_last_scan(), tetsql.Scans) are not
// shown to the next one; a held connection keeps its own.
func TestIsolation_nextUserSeesNoScans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDemoPool(t)
	a, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	var js sql.NullString
	if err := a.QueryRowContext(ctx, "SELECT sum(value) FROM demo.temperature WHERE station = 3").Scan(&sum); err != nil {
		t.Fatal(err)
	}
	if err := a.QueryRowContext(ctx, "SELECT tet_last_scan()").Scan(&js); err != nil || !strings.Contains(js.String, `"dataset":"temperature"`) {
		t.Fatalf("own last scan: %v %v", js, err)
	}
	a.Close()
	b, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.QueryRowContext(ctx, "SELECT tet_last_scan()").Scan(&js); err != nil || js.Valid {
		t.Errorf("next user's tet_last_scan(): %v %v, want NULL", js, err)
	}
	if scans, err := tetsql.Scans(ctx, b); err != nil || len(scans) != 0 {
		t.Errorf("next user's Scans: %v %v, want none", scans, err)
	}
}

// TestIsolation_safeConnectionIsReused: safe mode's authorizer and SQLite
// limits are part of the connection's snapshot, so a connection that only
// read (or had statements refused) is reused, not replaced every time.
func TestIsolation_safeConnectionIsReused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sql.Open("tetsql", filepath.Join("testdata", "demo.tet")+"?safe=1")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	first := rawConn(t, db)
	for _, q := range []string{"SELECT sum(value) FROM temperature", "CREATE TEMP VIEW temperature AS SELECT 1 AS value",
		"ATTACH ':memory:' AS x", "SELECT count FROM temperature_agg('time') LIMIT 2"} {
		rows, err := db.QueryContext(ctx, q)
		if err == nil {
			for rows.Next() {
			}
			rows.Close()
		}
	}
	if got := rawConn(t, db); got != first {
		t.Fatal("a safe-mode connection that only read was replaced")
	}
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM temperature").Scan(&n); err != nil || n != 18300 {
		t.Fatalf("count %d %v", n, err)
	}
}
