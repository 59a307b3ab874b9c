package repl

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// schemaInfo is one attached schema.
type schemaInfo struct {
	name string
	file string // SQLite database file ("" for in-memory schemas)
	tet  bool   // holds tet tables
	path string // the .tet file, when tet
}

// schemas lists the connection's schemas in attach order, telling the
// tet ones (which hold a tet_file table) apart.
func (s *Shell) schemas(ctx context.Context) ([]schemaInfo, error) {
	var out []schemaInfo
	err := s.queryRows(ctx, "SELECT name, file FROM pragma_database_list ORDER BY seq", func(v []any) error {
		out = append(out, schemaInfo{name: str(v[0]), file: str(v[1])})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		sc := &out[i]
		q := fmt.Sprintf("SELECT path FROM %s.tet_file WHERE EXISTS (SELECT 1 FROM %s.sqlite_schema WHERE name = 'tet_file')",
			quoteIdent(sc.name), quoteIdent(sc.name))
		if sc.file != "" || sc.name == "main" || sc.name == "temp" {
			continue
		}
		if err := s.queryRows(ctx, q, func(v []any) error { sc.tet, sc.path = true, str(v[0]); return nil }); err != nil {
			continue // not a tet schema
		}
	}
	return out, nil
}

// str renders a scanned value as text.
func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

// quoteIdent quotes a SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a SQL string literal.
func quoteString(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

// qualified names a table for display: bare in main, schema.name elsewhere.
func qualified(schema, name string) string {
	if schema == "main" {
		return name
	}
	return schema + "." + name
}

// dotTables lists tables and views in columns, like sqlite3's .tables.
func (s *Shell) dotTables(ctx context.Context, args []string) error {
	scs, err := s.schemas(ctx)
	if err != nil {
		return err
	}
	pattern := "%"
	if len(args) == 1 {
		pattern = args[0]
	}
	var names []string
	for _, sc := range scs {
		q := fmt.Sprintf(`SELECT name FROM %s.sqlite_schema WHERE type IN ('table', 'view')
			AND name NOT LIKE 'sqlite\_%%' ESCAPE '\' ORDER BY name`, quoteIdent(sc.name))
		err := s.queryRows(ctx, q, func(v []any) error {
			n := qualified(sc.name, str(v[0]))
			if like(pattern, str(v[0])) || like(pattern, n) {
				names = append(names, n)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	writeColumns(s.opt.Stdout, names, 80)
	return nil
}

// like matches SQL LIKE patterns (% and _, case-insensitive for ASCII).
func like(pattern, s string) bool {
	p, t := strings.ToLower(pattern), strings.ToLower(s)
	var match func(p, t string) bool
	match = func(p, t string) bool {
		for p != "" {
			switch p[0] {
			case '%':
				for i := 0; i <= len(t); i++ {
					if match(p[1:], t[i:]) {
						return true
					}
				}
				return false
			case '_':
				if t == "" {
					return false
				}
				p, t = p[1:], t[1:]
			default:
				if t == "" || p[0] != t[0] {
					return false
				}
				p, t = p[1:], t[1:]
			}
		}
		return t == ""
	}
	return match(p, t)
}

// writeColumns prints names in as many columns as fit width, filled top
// to bottom.
func writeColumns(w io.Writer, names []string, width int) {
	if len(names) == 0 {
		return
	}
	colw := 0
	for _, n := range names {
		colw = max(colw, len(n))
	}
	colw += 2
	ncol := max(1, width/colw)
	nrow := (len(names) + ncol - 1) / ncol
	for r := 0; r < nrow; r++ {
		var b strings.Builder
		for c := 0; c < ncol; c++ {
			i := c*nrow + r
			if i >= len(names) {
				break
			}
			fmt.Fprintf(&b, "%-*s", colw, names[i])
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// dotSchema prints the CREATE statement of every table (matching the
// LIKE pattern). Virtual tables show their columns as a CREATE TABLE.
func (s *Shell) dotSchema(ctx context.Context, args []string) error {
	scs, err := s.schemas(ctx)
	if err != nil {
		return err
	}
	pattern := "%"
	if len(args) == 1 {
		pattern = args[0]
	}
	found := false
	for _, sc := range scs {
		type entry struct{ name, sql string }
		var entries []entry
		q := fmt.Sprintf(`SELECT name, sql FROM %s.sqlite_schema WHERE sql IS NOT NULL
			AND name NOT LIKE 'sqlite\_%%' ESCAPE '\' ORDER BY type DESC, name`, quoteIdent(sc.name))
		err := s.queryRows(ctx, q, func(v []any) error {
			n := str(v[0])
			if like(pattern, n) || like(pattern, qualified(sc.name, n)) {
				entries = append(entries, entry{n, str(v[1])})
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, e := range entries {
			found = true
			text := e.sql
			if strings.HasPrefix(strings.ToUpper(text), "CREATE VIRTUAL TABLE") {
				if text, err = s.virtualSchema(ctx, sc.name, e.name); err != nil {
					return err
				}
			}
			fmt.Fprintf(s.opt.Stdout, "%s;\n", text)
		}
	}
	if !found && len(args) == 1 {
		return fmt.Errorf("no table matches %q", pattern)
	}
	return nil
}

// virtualSchema renders a virtual table's declared columns.
func (s *Shell) virtualSchema(ctx context.Context, schema, table string) (string, error) {
	var cols []string
	err := s.queryRows(ctx, "SELECT name, type, hidden FROM pragma_table_xinfo(?, ?) ORDER BY cid", func(v []any) error {
		c := quoteIfNeeded(str(v[0])) + " " + str(v[1])
		if h, ok := v[2].(int64); ok && h != 0 {
			c += " HIDDEN"
		}
		cols = append(cols, c)
		return nil
	}, table, schema)
	if err != nil {
		return "", err
	}
	name := quoteIfNeeded(table)
	if schema != "main" {
		name = quoteIfNeeded(schema) + "." + name
	}
	return fmt.Sprintf("CREATE TABLE %s(%s) /* virtual, read-only */", name, strings.Join(cols, ", ")), nil
}

// quoteIfNeeded quotes identifiers that are not plain words.
func quoteIfNeeded(id string) string {
	if id == "" || id[0] >= '0' && id[0] <= '9' {
		return quoteIdent(id)
	}
	for i := 0; i < len(id); i++ {
		if !idChar(id[i]) || id[i] == '$' {
			return quoteIdent(id)
		}
	}
	return id
}
