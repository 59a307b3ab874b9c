package tetsql

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/internal/memformat"
	"github.com/tetsql/tetsql/internal/scan"
)

// memDriver is a driver whose registry also opens the test format
// memformat, whose files may have tables of their own.
func memDriver() Driver {
	return Driver{reg: scan.NewRegistry(append(slices.Clone(formats), memformat.Format))}
}

// writeMem writes a memformat file named name holding body (the JSON
// after the magic line).
func writeMem(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(memformat.Magic+body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const notesBody = `{"arrays": [{"name": "d", "dtype": "u8", "shape": [2], "chunk_shape": [2], "values": [1, 2]}],
	"tables": [{"name": "mem_notes", "columns": [["k", "TEXT"], ["n", "INTEGER"], ["x", "REAL"], ["b", "BLOB"]],
	            "rows": [["a", 1, 0.5, {"hex": "00ff"}], ["d", null, -2.5, null]]}]}`

// TestFormatTables_driver: a format's own tables reach database/sql
// with their values' types, also in safe mode, which refuses to drop
// them as any table; a file whose format table cannot be created fails
// its attach with the reason, and the connection goes on.
func TestFormatTables_driver(t *testing.T) {
	path := writeMem(t, "notes.memarray", notesBody)
	for _, safe := range []bool{false, true} {
		dsn := path
		if safe {
			dsn += "?safe=1"
		}
		cn, err := memDriver().OpenConnector(dsn)
		if err != nil {
			t.Fatal(err)
		}
		db := sql.OpenDB(cn)
		defer db.Close()
		rows, err := db.Query("SELECT n.k, n.n, n.x, n.b, d.dtype FROM notes.mem_notes n LEFT JOIN notes.tet_datasets d ON d.name = n.k ORDER BY n.rowid")
		if err != nil {
			t.Fatalf("safe=%v: %v", safe, err)
		}
		var got [][]any
		for rows.Next() {
			var k, n, x, b, dt any
			if err := rows.Scan(&k, &n, &x, &b, &dt); err != nil {
				t.Fatal(err)
			}
			got = append(got, []any{k, n, x, b, dt})
		}
		rows.Close()
		want := [][]any{{"a", int64(1), 0.5, []byte{0, 0xff}, nil}, {"d", nil, -2.5, nil, "u8"}}
		if err := rows.Err(); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("safe=%v: %#v, %v; want %#v", safe, got, err, want)
		}
		var types string
		if err := db.QueryRow("SELECT group_concat(type, ' ') FROM pragma_table_info('mem_notes', 'notes')").Scan(&types); err != nil || types != "TEXT INTEGER REAL BLOB" {
			t.Errorf("safe=%v: declared types %q, %v", safe, types, err)
		}
		_, err = db.Exec("DROP TABLE notes.mem_notes")
		if safe && !errors.Is(err, ErrNotAllowed) {
			t.Errorf("safe mode: DROP TABLE of a format table: %v, want not allowed", err)
		}
	}

	// Conn.Attach (the shell's .open): a refused format table fails the
	// attach and leaves no schema behind.
	cn, err := memDriver().OpenConnector(path)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(cn)
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	bad := writeMem(t, "bad.memarray", `{"tables": [{"name": "tet_notes", "columns": [["k", "TEXT"]], "rows": []}]}`)
	good := writeMem(t, "good.memarray", `{"tables": [{"name": "more", "columns": [["k", "TEXT"]], "rows": [["z"]]}]}`)
	err = conn.Raw(func(dc any) error { return dc.(*Conn).Attach(ctx, "", bad) })
	if err == nil || !strings.Contains(err.Error(), `format table 0 ("tet_notes"): the prefix tet_ belongs to the metadata tables every format gets`) {
		t.Errorf("attach of a file with a refused table: %v", err)
	}
	if err := conn.Raw(func(dc any) error { return dc.(*Conn).Attach(ctx, "", good) }); err != nil {
		t.Fatal(err)
	}
	var schemas, k string
	if err := conn.QueryRowContext(ctx, "SELECT group_concat(name, ' ') FROM pragma_database_list").Scan(&schemas); err != nil || schemas != "main notes good" {
		t.Errorf("schemas %q, %v; want main notes good", schemas, err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT k FROM good.more").Scan(&k); err != nil || k != "z" {
		t.Errorf("good.more: %q, %v", k, err)
	}
}
