package repl

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/tetsql/tetsql"
)

// manyTable is one many-file table (module tet_many) of a schema, as its
// CREATE statement declares it.
type manyTable struct {
	name    string
	pattern string // the glob, as written
	agg     bool   // kind=agg: an _agg companion
}

// manyUsing finds the module arguments of a tet_many table's CREATE
// statement.
var manyUsing = regexp.MustCompile(`(?is)\busing\s+tet_many\s*\((.*)\)\s*$`)

// parseMany reads a CREATE VIRTUAL TABLE statement of module tet_many:
// its glob (the first argument, quoted or not) and whether it is an
// aggregate table (a 'kind=agg' argument).
func parseMany(sql string) (pattern string, agg, ok bool) {
	m := manyUsing.FindStringSubmatch(sql)
	if m == nil {
		return "", false, false
	}
	args := splitArgs(m[1])
	if len(args) == 0 || args[0] == "" {
		return "", false, false
	}
	for _, a := range args[1:] {
		k, v, _ := strings.Cut(a, "=")
		if strings.EqualFold(strings.TrimSpace(k), "kind") && strings.EqualFold(strings.TrimSpace(v), "agg") {
			agg = true
		}
	}
	return args[0], agg, true
}

// splitArgs splits module arguments at the commas outside quotes and
// removes one level of SQL quoting ('…', "…") from each.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote && i+1 < len(s) && s[i+1] == quote:
			cur.WriteByte(c) // a doubled quote inside quotes
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote = c
		case c == ',':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// manyTables lists the many-file tables of schema.
func (s *Shell) manyTables(ctx context.Context, schema string) ([]manyTable, error) {
	var out []manyTable
	q := fmt.Sprintf("SELECT name, sql FROM %s.sqlite_schema WHERE type = 'table' AND sql LIKE '%%tet_many%%' ORDER BY rowid", quoteIdent(schema))
	err := s.queryRows(ctx, q, func(v []any) error {
		if p, agg, ok := parseMany(str(v[1])); ok {
			out = append(out, manyTable{name: str(v[0]), pattern: p, agg: agg})
		}
		return nil
	})
	return out, err
}

// globInputs lists, as inputs, the files every many-file table of the
// connection matches: an output must not replace one of them either.
func (s *Shell) globInputs(ctx context.Context, scs []schemaInfo) []input {
	var out []input
	seen := map[string]bool{}
	for _, sc := range scs {
		ts, err := s.manyTables(ctx, sc.name)
		if err != nil {
			continue // not readable: no tables of ours
		}
		for _, t := range ts {
			if seen[t.pattern] {
				continue
			}
			seen[t.pattern] = true
			paths, err := tetsql.GlobFiles(t.pattern)
			if err != nil {
				continue // listing fails now: no file to protect can be named
			}
			for _, p := range paths {
				if fi, err := os.Stat(p); err == nil {
					out = append(out, input{what: fmt.Sprintf("matched by %s in %s", t.pattern, sc.name), fi: fi})
				}
			}
		}
	}
	return out
}

// globSchema reports whether sc is a schema the driver made for a glob:
// in memory, not tet, with many-file tables. It returns their glob and
// the names of the cells tables.
func (s *Shell) globSchema(ctx context.Context, sc schemaInfo) (pattern string, tables []string, ok bool) {
	if sc.tet || sc.file != "" || sc.name == "main" || sc.name == "temp" {
		return "", nil, false
	}
	ts, err := s.manyTables(ctx, sc.name)
	if err != nil || len(ts) == 0 {
		return "", nil, false
	}
	for _, t := range ts {
		if !t.agg {
			tables = append(tables, quoteIfNeeded(t.name))
		}
	}
	return ts[0].pattern, tables, true
}

// describeGlob prints one line about a glob's schema (.open, the
// banner): its alias, glob and tables.
func (s *Shell) describeGlob(ctx context.Context, w io.Writer, sc schemaInfo) bool {
	pattern, tables, ok := s.globSchema(ctx, sc)
	if !ok {
		return false
	}
	list := strings.Join(tables, ", ")
	if len(tables) > 6 {
		list = strings.Join(tables[:5], ", ") + ", …"
	}
	fmt.Fprintf(w, "%s: %s — %s: %s\n", sc.name, pattern, plural(len(tables), "table"), list)
	return true
}

// globSchemas returns the glob schemas, or the one named which ("" =
// all).
func (s *Shell) globSchemas(ctx context.Context, which string) []schemaInfo {
	all, err := s.schemas(ctx)
	if err != nil {
		return nil
	}
	var out []schemaInfo
	for _, sc := range all {
		if which != "" && !strings.EqualFold(which, sc.name) {
			continue
		}
		if _, _, ok := s.globSchema(ctx, sc); ok {
			out = append(out, sc)
		}
	}
	return out
}

// globPattern is the glob of a glob schema.
func (s *Shell) globPattern(ctx context.Context, sc schemaInfo) string {
	p, _, _ := s.globSchema(ctx, sc)
	return p
}
