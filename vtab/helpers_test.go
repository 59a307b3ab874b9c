package vtab_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// formats is the format list of the tests' registries.
var formats = []array.Format{tetcore.Format}

// newSession returns a session over a registry of its own.
func newSession() *vtab.Session { return vtab.NewSession(scan.NewRegistry(formats)) }

// openDB returns a one-connection database with each file attached under
// its alias (map alias → path), plus the connection's session, whose
// registry is the database's own.
func openDB(t testing.TB, files map[string]string) (*sql.DB, *vtab.Session) {
	t.Helper()
	sess := newSession()
	db := sql.OpenDB(vtab.Connector{Name: ":memory:", Session: sess})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	for alias, path := range files {
		h, err := sess.Registry.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(path)
		for _, s := range vtab.SetupSQL(alias, abs, h.Source(), sess) {
			if _, err := db.Exec(s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		h.Close()
	}
	return db, sess
}

// rowsOf runs a query and renders every row as a "|"-joined string.
func rowsOf(t testing.TB, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	out, err := tryRows(db, q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// tryRows is rowsOf returning the error instead of failing the test.
func tryRows(db *sql.DB, q string, args ...any) ([]string, error) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out, rows.Err()
}
