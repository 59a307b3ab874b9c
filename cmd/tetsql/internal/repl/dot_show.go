package repl

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql"
)

// .print, .show and .databases: sqlite3's commands of the same names.

// dotPrint writes its arguments, separated by spaces, and a newline to
// the current output (sqlite3's .print, for labelling a script's output).
func (s *Shell) dotPrint(_ context.Context, args []string) error {
	w := s.opt.Stdout
	if s.out != nil {
		w = s.out.file
		s.out.wrote++
	}
	_, err := fmt.Fprintln(w, strings.Join(args, " "))
	return err
}

// dotShow lists the current settings, one "name: value" line each:
// every one a dot command or flag sets (compression: Parquet's, from
// --compression).
func (s *Shell) dotShow(_ context.Context, _ []string) error {
	onOffText := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	out, once := "stdout", "off"
	if s.out != nil {
		out = s.out.path
	}
	if s.once != nil {
		once = s.once.path
	}
	compression := strings.ToLower(s.opt.Compression)
	if compression == "" {
		compression = "zstd"
	}
	for _, kv := range [][2]string{
		{"mode", s.currentMode().String()},
		{"headers", onOffText(s.header)},
		{"nullvalue", fmt.Sprintf("%q", s.null)},
		{"output", out},
		{"once", once},
		{"timer", onOffText(s.timer)},
		{"stats", onOffText(s.stats)},
		{"echo", onOffText(s.echo)},
		{"bail", onOffText(s.bail)},
		{"width", s.widthText()},
		{"maxrows", strconv.FormatInt(s.maxRows, 10)},
		{"parameters", fmt.Sprint(len(s.params))},
		{"compression", compression},
		{"safe", onOffText(s.opt.Safe)},
	} {
		if _, err := fmt.Fprintf(s.opt.Stdout, "%11s: %s\n", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// dotDatabases lists the attached schemas and their files, as sqlite3's
// .databases does ("name: file"): a file's schema names the array file
// (its tet_file row), a glob's its pattern and how many files that
// matches now, an attached SQLite database its file, main and temp none.
func (s *Shell) dotDatabases(ctx context.Context, _ []string) error {
	scs, err := s.schemas(ctx)
	if err != nil {
		return err
	}
	for _, sc := range scs {
		name := sc.name
		if pattern, _, ok := s.globSchema(ctx, sc); ok {
			if _, err := fmt.Fprintf(s.opt.Stdout, "%s: %s (glob, %s)\n", name, pattern, globCount(pattern)); err != nil {
				return err
			}
			continue
		}
		var paths []string
		if r, err := s.conn.QueryContext(ctx, "SELECT path FROM "+quoteIdent(name)+".tet_file"); err == nil {
			for r.Next() {
				var p string
				if r.Scan(&p) == nil {
					paths = append(paths, p)
				}
			}
			r.Close()
		}
		file := strings.Join(paths, ", ")
		if file == "" {
			file = sc.file
		}
		if file == "" {
			file = `""`
		}
		if _, err := fmt.Fprintf(s.opt.Stdout, "%s: %s\n", name, file); err != nil {
			return err
		}
	}
	return nil
}

// globCount says how many files a glob matches now: "3 files", or why
// they cannot be listed.
func globCount(pattern string) string {
	paths, err := tetsql.GlobFiles(pattern)
	if err != nil {
		return "files not listed: " + Message(err)
	}
	return plural(len(paths), "file")
}
