package repl

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// tetSchemas returns the tet schemas, or the one that which names (an
// alias, the file's path or base name); "" = all.
func (s *Shell) tetSchemas(ctx context.Context, which string) ([]schemaInfo, error) {
	all, err := s.schemas(ctx)
	if err != nil {
		return nil, err
	}
	var out []schemaInfo
	for _, sc := range all {
		if !sc.tet {
			continue
		}
		if which == "" || strings.EqualFold(which, sc.name) || samePath(which, sc.path) ||
			filepath.Base(which) == filepath.Base(sc.path) {
			out = append(out, sc)
		}
	}
	if which != "" && len(out) == 0 {
		return nil, fmt.Errorf("no attached file %q; .datasets lists them", which)
	}
	return out, nil
}

func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// displayPath shortens an absolute path relative to the working
// directory when it lies below it.
func displayPath(p string) string {
	if wd, err := filepath.Abs("."); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}

// dataset is one row of tet_datasets, decoded.
type dataset struct {
	name, dtype               string
	table, agg                string // the tables' names (tet_datasets.table_name, agg_table)
	shape, chunk              []int64
	chunks, raw, stored, elts int64
}

// dotDatasets prints a readable catalog of every file's datasets, and a
// line per glob's schema.
func (s *Shell) dotDatasets(ctx context.Context, args []string) error {
	which := ""
	if len(args) == 1 {
		which = args[0]
	}
	globs := s.globSchemas(ctx, which)
	scs, err := s.tetSchemas(ctx, which)
	if err != nil && len(globs) == 0 {
		return err
	}
	if len(scs) == 0 && len(globs) == 0 {
		fmt.Fprintln(s.opt.Stdout, "no .tet file attached; use .open FILE")
	}
	for i, sc := range scs {
		if i > 0 {
			fmt.Fprintln(s.opt.Stdout)
		}
		if err := s.catalog(ctx, s.opt.Stdout, sc); err != nil {
			return err
		}
	}
	for i, sc := range globs {
		if i > 0 || len(scs) > 0 {
			fmt.Fprintln(s.opt.Stdout)
		}
		s.describeGlob(ctx, s.opt.Stdout, sc)
		fmt.Fprintf(s.opt.Stdout, "  files: SELECT * FROM tet_files(%s)\n", quoteString(s.globPattern(ctx, sc)))
	}
	return nil
}

func (s *Shell) catalog(ctx context.Context, w io.Writer, sc schemaInfo) error {
	q := quoteIdent(sc.name)
	var dss []dataset
	err := s.queryRows(ctx, "SELECT name, dtype, shape, chunk_shape, chunk_count, raw_bytes, stored_bytes, element_count, table_name, agg_table FROM "+q+".tet_datasets",
		func(v []any) error {
			d := dataset{name: str(v[0]), dtype: str(v[1]), chunks: num(v[4]), raw: num(v[5]), stored: num(v[6]), elts: num(v[7]),
				table: str(v[8]), agg: str(v[9])}
			json.Unmarshal([]byte(str(v[2])), &d.shape)
			json.Unmarshal([]byte(str(v[3])), &d.chunk)
			dss = append(dss, d)
			return nil
		})
	if err != nil {
		return err
	}
	var size int64
	s.queryRows(ctx, "SELECT size FROM "+q+".tet_file", func(v []any) error { size = num(v[0]); return nil })
	fmt.Fprintf(w, "%s: %s (%s, %s)\n", sc.name, displayPath(sc.path), plural(len(dss), "dataset"), sizeText(size))
	attrs, err := s.attrs(ctx, q, nil)
	if err != nil {
		return err
	}
	writeAttrs(w, "  ", "file attrs", attrs)
	for _, d := range dss {
		codecs := ""
		s.queryRows(ctx, "SELECT group_concat(DISTINCT codec) FROM "+q+".tet_chunks WHERE dataset = ?",
			func(v []any) error { codecs = str(v[0]); return nil }, d.name)
		fmt.Fprintf(w, "  %s  %s %s  chunks %s → %s", quoteIfNeeded(d.name), d.dtype, dims(d.shape), dims(d.chunk), plural(int(d.chunks), "chunk"))
		fmt.Fprintf(w, "  %s values  %s raw, %s stored", groupDigits(d.elts), sizeText(d.raw), sizeText(d.stored))
		if codecs != "" {
			fmt.Fprintf(w, " (%s)", codecs)
		}
		fmt.Fprintln(w)
		if d.table != d.name || d.agg != d.name+"_agg" {
			// The name clashed with a rule of SQLite's or ours (docs/SQL.md, Table names).
			if d.agg == "" {
				fmt.Fprintf(w, "    table %s (no aggregate table: a dataset is named %s)\n", quoteIfNeeded(d.table), quoteIfNeeded(d.table+"_agg"))
			} else {
				fmt.Fprintf(w, "    tables %s, %s\n", quoteIfNeeded(d.table), quoteIfNeeded(d.agg))
			}
		}
		err := s.queryRows(ctx, "SELECT axis, name, size, chunk_size, labeled FROM "+q+".tet_dims WHERE dataset = ? ORDER BY axis",
			func(v []any) error {
				line := fmt.Sprintf("    %-10s size %-8d chunk %-6d", str(v[1]), num(v[2]), num(v[3]))
				if num(v[4]) != 0 {
					labels, err := s.labels(ctx, q, d.name, str(v[1]))
					if err != nil {
						return err
					}
					line += " labels " + labels
				}
				fmt.Fprintln(w, strings.TrimRight(line, " "))
				return nil
			}, d.name)
		if err != nil {
			return err
		}
		attrs, err := s.attrs(ctx, q, d.name)
		if err != nil {
			return err
		}
		writeAttrs(w, "    ", "attrs", attrs)
	}
	return nil
}

// labels summarizes a labeled axis: the first three labels and the last.
func (s *Shell) labels(ctx context.Context, q, ds, dim string) (string, error) {
	var first []string
	var last string
	n := 0
	err := s.queryRows(ctx, "SELECT label FROM "+q+".tet_coords WHERE dataset = ? AND dim = ? ORDER BY idx", func(v []any) error {
		if n < 3 {
			first = append(first, str(v[0]))
		}
		last = str(v[0])
		n++
		return nil
	}, ds, dim)
	switch {
	case n > 4:
		return strings.Join(first, ", ") + ", …, " + last, err
	case n == 4:
		return strings.Join(first, ", ") + ", " + last, err
	}
	return strings.Join(first, ", "), err
}

// writeAttrs prints "attrs: k=v  k=v" on one line when it is short,
// else one attribute per line.
func writeAttrs(w io.Writer, indent, label string, attrs []string) {
	switch line := strings.Join(attrs, "  "); {
	case len(attrs) == 0:
	case len(indent)+len(label)+len(line) <= 100:
		fmt.Fprintf(w, "%s%s: %s\n", indent, label, line)
	default:
		fmt.Fprintf(w, "%s%s:\n", indent, label)
		for _, a := range attrs {
			fmt.Fprintf(w, "%s  %s\n", indent, a)
		}
	}
}

// attrs renders the attributes of a dataset (nil: of the file) as
// key=value pairs.
func (s *Shell) attrs(ctx context.Context, q string, ds any) ([]string, error) {
	cond := "dataset IS NULL"
	var args []any
	if ds != nil {
		cond, args = "dataset = ?", []any{ds}
	}
	var parts []string
	err := s.queryRows(ctx, "SELECT key, value FROM "+q+".tet_attrs WHERE "+cond+" ORDER BY key", func(v []any) error {
		val := str(v[1])
		if val == "" || strings.ContainsAny(val, " \t\"") {
			b, _ := json.Marshal(val)
			val = string(b)
		}
		parts = append(parts, str(v[0])+"="+val)
		return nil
	}, args...)
	return parts, err
}

func num(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

func dims(a []int64) string {
	parts := make([]string, len(a))
	for i, n := range a {
		parts[i] = fmt.Sprint(n)
	}
	return "[" + strings.Join(parts, "×") + "]"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return groupDigits(int64(n)) + " " + what + "s"
}

// dotInfo prints each file's tet_file row, one "column = value" per line.
func (s *Shell) dotInfo(ctx context.Context, args []string) error {
	which := ""
	if len(args) == 1 {
		which = args[0]
	}
	scs, err := s.tetSchemas(ctx, which)
	if err != nil {
		return err
	}
	for _, sc := range scs {
		w, err := output.New(output.Line, s.opt.Stdout, output.Options{Null: s.null})
		if err != nil {
			return err
		}
		rows, err := s.conn.QueryContext(ctx, "SELECT "+quoteString(sc.name)+" AS schema, * FROM "+quoteIdent(sc.name)+".tet_file")
		if err != nil {
			return err
		}
		_, err = output.Copy(w, rows)
		rows.Close()
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
