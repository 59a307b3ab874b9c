package repl_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
	"github.com/tetsql/tetsql/internal/memformat"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// TestTables_formatTables: .tables and .schema list the tables a format
// has of its own (array.TableProvider) with the others of the file's
// schema, and they answer queries in the shell.
func TestTables_formatTables(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "notes.memarray")
	body := memformat.Magic + `{"arrays": [{"name": "d", "dtype": "u8", "shape": [2], "chunk_shape": [2], "values": [1, 2]}],
		"tables": [{"name": "mem_notes", "columns": [["k", "TEXT"], ["n", "INTEGER"]], "rows": [["a", 1], ["b", null]]}]}`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	// The driver's format list has no memformat: attach it as a program
	// of its own would (vtab.Connector, vtab.SetupSQL).
	reg := scan.NewRegistry([]array.Format{tetcore.Format, memformat.Format})
	sess := vtab.NewSession(reg)
	db := sql.OpenDB(vtab.Connector{Name: ":memory:", Session: sess})
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h, err := reg.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range vtab.SetupSQL("notes", path, h.Source(), sess) {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	h.Close()
	var out strings.Builder
	sh, err := repl.New(conn, repl.Options{Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sh.CloseAfter(nil)
		conn.Close()
		db.Close()
	})
	run := func(cmd string) string {
		t.Helper()
		out.Reset()
		if err := sh.Exec(ctx, cmd); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		return out.String()
	}
	tables := strings.Fields(run(".tables"))
	want := []string{"notes.d", "notes.d_agg", "notes.mem_notes", "notes.tet_attrs", "notes.tet_file"}
	for _, w := range want {
		if !strings.Contains(" "+strings.Join(tables, " ")+" ", " "+w+" ") {
			t.Errorf(".tables lacks %s: %v", w, tables)
		}
	}
	if got := run(".tables mem%"); strings.TrimSpace(got) != "notes.mem_notes" {
		t.Errorf(".tables mem%%: %q", got)
	}
	if got, want := run(".schema mem_notes"), "CREATE TABLE notes.mem_notes(k TEXT, n INTEGER) /* virtual, read-only */;\n"; got != want {
		t.Errorf(".schema mem_notes: %q, want %q", got, want)
	}
	run(".mode csv")
	if got := run("SELECT k, n FROM notes.mem_notes;"); got != "a,1\nb,\n" {
		t.Errorf("query: %q", got)
	}
}
