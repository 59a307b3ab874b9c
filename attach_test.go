package tetsql_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql"
)

// TestConnAttach_failureKeepsSchemas: an Attach that fails, because
// the alias is taken or the file is not a .tet file, leaves the schemas
// attached before it in place.
func TestConnAttach_failureKeepsSchemas(t *testing.T) {
	t.Parallel()
	demo := filepath.Join("testdata", "demo.tet")
	c, err := tetsql.NewConnector(tetsql.Config{Files: []tetsql.FileSpec{{Alias: "demo", Path: demo}}})
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const q = "SELECT count(*) FROM demo.tet_datasets"
	var want int
	if err := conn.QueryRowContext(ctx, q).Scan(&want); err != nil || want == 0 {
		t.Fatalf("%d datasets, %v", want, err)
	}
	for _, tt := range []struct{ alias, path string }{
		{"demo", filepath.Join("testdata", "reference", "sample.tet")},
		{"DEMO", demo},
		{"demo", "conn.go"},
		{"other", "conn.go"},
	} {
		err := conn.Raw(func(dc any) error { return dc.(*tetsql.Conn).Attach(ctx, tt.alias, tt.path) })
		if err == nil {
			t.Errorf("Attach(%s, %s) succeeded", tt.alias, tt.path)
		}
		var got int
		if err := conn.QueryRowContext(ctx, q).Scan(&got); err != nil || got != want {
			t.Errorf("after Attach(%s, %s): %d datasets, %v; want %d", tt.alias, tt.path, got, err, want)
		}
	}
	var schemas string
	conn.QueryRowContext(ctx, "SELECT group_concat(name) FROM pragma_database_list").Scan(&schemas)
	if schemas != "main,demo" {
		t.Errorf("schemas %q", schemas)
	}
}
