package repl

import (
	"context"
	"fmt"
	"strings"
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

// dotShow lists the current settings, one "name: value" line each.
func (s *Shell) dotShow(_ context.Context, _ []string) error {
	onOffText := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	out := "stdout"
	if s.out != nil {
		out = s.out.path
	}
	for _, kv := range [][2]string{
		{"mode", s.currentMode().String()},
		{"headers", onOffText(s.header)},
		{"nullvalue", fmt.Sprintf("%q", s.null)},
		{"output", out},
		{"timer", onOffText(s.timer)},
		{"stats", onOffText(s.stats)},
		{"safe", onOffText(s.opt.Safe)},
	} {
		if _, err := fmt.Fprintf(s.opt.Stdout, "%10s: %s\n", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// dotDatabases lists the attached schemas and their files, as sqlite3's
// .databases does ("name: file"): a file's schema names the array file
// (its tet_file row), main and temp none.
func (s *Shell) dotDatabases(ctx context.Context, _ []string) error {
	var names []string
	rows, err := s.conn.QueryContext(ctx, "SELECT name FROM pragma_database_list ORDER BY seq")
	if err != nil {
		return err
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		names = append(names, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, name := range names {
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
			file = `""`
		}
		if _, err := fmt.Fprintf(s.opt.Stdout, "%s: %s\n", name, file); err != nil {
			return err
		}
	}
	return nil
}
