package vtab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
)

// Format tables are the metadata tables a format has of its own
// (array.TableProvider: Tensogram's tgm_messages and tgm_objects). Each
// is a metadata table of kind formatTableKind, named by its Name in the
// module arguments, served like the fixed ones: its rows are listed
// whole at each Filter, sized against the memory limit first: Rows runs
// twice per scan (once to count, once to build), and is checked for the
// statement's interruption every interruptEvery rows.

// formatTableKind is the module argument kind of a format table:
// USING tet('/abs/f.tgm', format_table, 'tgm_messages').
const formatTableKind = "format_table"

// formatTablesPlaceholder names the one statement SetupSQL emits for a
// file whose format tables cannot be created: its creation fails with
// the reason. The tet_ prefix keeps it clear of every other table.
const formatTablesPlaceholder = "tet_format_tables"

// columnTypes are the declared types a format table's columns may have.
var columnTypes = map[string]bool{"INTEGER": true, "REAL": true, "TEXT": true, "BLOB": true}

// formatTables returns the format tables of src (nil when its format
// has none), or why they cannot be created: a table whose name is empty,
// holds a NUL, starts with sqlite_ (SQLite's) or tet_ (the fixed
// metadata tables'), or equals another's ignoring ASCII case; a table
// with no columns, no rows function, or a column that is unnamed,
// repeated or of a type other than INTEGER, REAL, TEXT and BLOB.
func formatTables(src *scan.Source) ([]array.Table, error) {
	p, ok := src.Underlying().(array.TableProvider)
	if !ok {
		return nil, nil
	}
	tables := p.Tables()
	seen := map[string]bool{}
	for i, t := range tables {
		if err := checkFormatTable(t, seen); err != nil {
			return nil, fmt.Errorf("tet: %s: format table %d (%q): %w", src.GivenPath(), i, t.Name, err)
		}
	}
	return tables, nil
}

// checkFormatTable checks one table; seen holds the names (folded) of
// the tables before it.
func checkFormatTable(t array.Table, seen map[string]bool) error {
	l := asciiLower(t.Name)
	switch {
	case t.Name == "" || !sqlSafe(t.Name):
		return fmt.Errorf("a table name must be non-empty and hold no NUL byte")
	case strings.HasPrefix(l, "sqlite_"):
		return fmt.Errorf("the prefix sqlite_ is reserved by SQLite")
	case strings.HasPrefix(l, "tet_"):
		return fmt.Errorf("the prefix tet_ belongs to the metadata tables every format gets")
	case seen[l]:
		return fmt.Errorf("two format tables have this name (ignoring case)")
	case len(t.Columns) == 0 || t.Rows == nil:
		return fmt.Errorf("a table needs columns and a rows function")
	}
	seen[l] = true
	cols := map[string]bool{}
	for j, c := range t.Columns {
		cl := asciiLower(c.Name)
		switch {
		case c.Name == "" || !sqlSafe(c.Name) || cols[cl]:
			return fmt.Errorf("column %d (%q): a column name must be non-empty, hold no NUL byte and be the table's only one of its name", j, c.Name)
		case !columnTypes[c.Type]:
			return fmt.Errorf("column %q: type %q is none of INTEGER, REAL, TEXT, BLOB", c.Name, c.Type)
		}
		cols[cl] = true
	}
	return nil
}

// formatTableSQL returns the statements creating the format tables of
// src in schema q (quoted) of the file p (quoted): one per table, or,
// when they cannot be created, one that fails with the reason.
func formatTableSQL(q, p string, src *scan.Source) []string {
	tables, err := formatTables(src)
	if err != nil {
		// The module refuses every format table of this file with err
		// (formatKind); the placeholder name lets the statement reach it
		// whatever the offending name is (SQLite itself refuses a name
		// starting with sqlite_ or already taken, with a vaguer message).
		return []string{fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, %s, %s)",
			q, formatTablesPlaceholder, ModuleName, p, formatTableKind, quoteString(formatTablesPlaceholder))}
	}
	out := make([]string, len(tables))
	for i, t := range tables {
		out[i] = fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, %s, %s)",
			q, quoteIdent(t.Name), ModuleName, p, formatTableKind, quoteString(t.Name))
	}
	return out
}

// formatKind finds the format table a.formatTable names in the file of h
// and makes it a metadata table kind.
func formatKind(a tableArgs, h *scan.Handle) (*metaKind, error) {
	src := h.Source()
	tables, err := formatTables(src)
	if err != nil {
		return nil, fmt.Errorf("tet: table %q: %w", a.table, err)
	}
	var names []string
	for _, t := range tables {
		if t.Name == a.formatTable {
			return tableKind(t, src.GivenPath()), nil
		}
		names = append(names, t.Name)
	}
	has := "none"
	if len(names) > 0 {
		has = strings.Join(names, ", ")
	}
	return nil, fmt.Errorf("tet: table %q: the %s file %s has no format table %q (it has: %s)",
		a.table, src.Format().Name(), src.GivenPath(), a.formatTable, has)
}

// interruptEvery is how many rows of a format table are listed between
// two checks of the statement's interruption.
const interruptEvery = 1024

// tableKind makes t a metadata table kind: its columns as declared, its
// rows from t.Rows, each checked to hold one value per column, each nil,
// int64, float64, string or []byte.
func tableKind(t array.Table, path string) *metaKind {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = quoteIdent(c.Name) + " " + c.Type
	}
	return &metaKind{
		columns: strings.Join(cols, ", "),
		rows: func(_ *scan.Source, _ *scan.Array, emit *rowSink) {
			n := int64(0)
			err := t.Rows(func(row []any) bool {
				if n++; n%interruptEvery == 0 {
					if err := emit.sess.Interrupted(); err != nil {
						emit.fail(err)
						return false
					}
				}
				if err := checkRow(row, len(t.Columns)); err != nil {
					emit.fail(fmt.Errorf("%s: format table %s: row %d: %w", path, t.Name, n-1, err))
					return false
				}
				if emit.countOnly {
					emit.row(row...)
					return true
				}
				// The format may reuse its row and byte slices.
				v := slices.Clone(row)
				for i, x := range v {
					if b, ok := x.([]byte); ok {
						v[i] = slices.Clone(b)
					}
				}
				emit.row(v...)
				return true
			})
			if err != nil {
				emit.fail(fmt.Errorf("%s: format table %s: %w", path, t.Name, err))
			}
		},
	}
}

// checkRow checks that a row holds one value of the allowed types per
// column: anything else is a fault of the format, reported rather than
// shown as NULL.
func checkRow(row []any, ncol int) error {
	if len(row) != ncol {
		return fmt.Errorf("%d values for %d columns", len(row), ncol)
	}
	for i, x := range row {
		switch x.(type) {
		case nil, int64, float64, string, []byte:
		default:
			return fmt.Errorf("column %d: a %T value (want nil, int64, float64, string or []byte)", i, x)
		}
	}
	return nil
}
