package tetsql_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/tetsql/tetsql"
)

// TestRev3_readOnlyStatementsKeepConnection: now that IsValid compares a
// connection with its snapshot each time it goes back to the pool, any
// read-only statement that changes what the comparison sees would make
// every later statement pay for a fresh connection. Statements that only
// read (cells, _agg, a glob's tet_many, a routed aggregate, read PRAGMAs,
// EXPLAIN, a read transaction, tet_last_scan()) keep the one pooled
// connection.
func TestRev3_readOnlyStatementsKeepConnection(t *testing.T) {
	db, err := sql.Open("tetsql", "testdata/demo.tet;testdata/many/**/*.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	raw := func() *tetsql.Conn {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var tc *tetsql.Conn
		c.Raw(func(dc any) error { tc = dc.(*tetsql.Conn); return nil })
		return tc
	}
	first := raw()
	for _, q := range []string{
		"SELECT count(*) FROM many.t2m",
		"SELECT station_label, avg(value) FROM many.t2m WHERE station_label IN ('a', 'b') GROUP BY station_label",
		"SELECT sum(value) FROM temperature WHERE station_label IN ('a', 'b', 'Nairobi')",
		"SELECT time, avg(value) FROM temperature GROUP BY time",
		"SELECT * FROM demo.temperature_agg LIMIT 2",
		"SELECT tet_last_scan()",
		"PRAGMA table_info(temperature)",
		"PRAGMA demo.table_list",
		"PRAGMA page_size",
		"EXPLAIN QUERY PLAN SELECT * FROM temperature WHERE time = 1",
		"SELECT * FROM pragma_database_list",
		"SELECT name FROM demo.sqlite_schema",
		"SELECT name FROM sqlite_temp_schema",
	} {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
		}
		rows.Close()
		if got := raw(); got != first {
			t.Errorf("%s: the pooled connection was replaced", q)
			first = got
		}
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var n float64
	if err := tx.QueryRowContext(ctx, "SELECT sum(value) FROM temperature").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := raw(); got != first {
		t.Errorf("a read transaction: the pooled connection was replaced")
	}
}
