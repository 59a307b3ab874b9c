package repl_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestEcho: with .echo on (or Options.Echo) each command of a script
// is printed as read before it runs, as sqlite3 prints it: a dot
// command's line, the lines of the statements a line completes, not
// blank or comment lines between statements, and not .echo on itself.
func TestEcho(t *testing.T) {
	t.Parallel()
	script := ".headers off\n.echo on\nSELECT 1;   SELECT 2;\n\n-- between\n  SELECT\n  3 ;\n.print hi\n.echo off\nSELECT 4;\nSELECT 5"
	e := newEnv(t, repl.Options{Header: true}, ref("sample.tet"))
	if err := e.sh.RunScript(context.Background(), strings.NewReader(script), "s.sql"); err != nil {
		t.Fatal(err)
	}
	want := "SELECT 1;   SELECT 2;\n1\n2\n  SELECT\n  3 ;\n3\n.print hi\nhi\n.echo off\n4\n5\n"
	if got := e.stdout.String(); got != want {
		t.Errorf("stdout\n%q\nwant\n%q", got, want)
	}

	// A last statement without ';', and Options.Echo. A command-line
	// item (Exec: -c, -cmd, the SQL argument) is not echoed, as in
	// sqlite3.
	e = newEnv(t, repl.Options{Echo: true}, ref("sample.tet"))
	e.exec(t, "SELECT 6 AS six; SELECT 7 AS seven")
	if err := e.sh.RunScript(context.Background(), strings.NewReader("SELECT\n8 AS eight"), "t.sql"); err != nil {
		t.Fatal(err)
	}
	want = "6\n7\nSELECT\n8 AS eight\n8\n"
	if got := e.stdout.String(); got != want {
		t.Errorf("stdout\n%q\nwant\n%q", got, want)
	}

	// Into the output file, as sqlite3 does; to stderr beside Parquet.
	dir := t.TempDir()
	e = newEnv(t, repl.Options{Header: true, Echo: true}, ref("sample.tet"))
	script = ".output " + filepath.Join(dir, "e.csv") + "\nSELECT 1 AS a;\n.output\n.once " + filepath.Join(dir, "e.parquet") + "\nSELECT 2 AS b;\n"
	if err := e.sh.RunScript(context.Background(), strings.NewReader(script), "u.sql"); err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, filepath.Join(dir, "e.csv")), "SELECT 1 AS a;\na\n1\n.output\n"; got != want {
		t.Errorf("e.csv %q, want %q", got, want)
	}
	if n, _ := parquetRows(t, []byte(readFile(t, filepath.Join(dir, "e.parquet")))); n != 1 {
		t.Errorf("e.parquet: %d rows", n)
	}
	if got := e.stderr.String(); !strings.Contains(got, "SELECT 2 AS b;\n") {
		t.Errorf("stderr %q lacks the echo of the Parquet statement", got)
	}
}

// TestBail: the interactive shell carries on after an error, or with
// .bail on (Options.Bail) ends with ErrBail wrapping it after printing
// it; Ctrl-C never ends it.
func TestBail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		opt   repl.Options
		lines []string
		bail  bool
		out   string
	}{
		{name: "off", lines: []string{"SELECT nope;", "SELECT 1 AS a;"}, out: "a\n1\n"},
		{name: ".bail on, SQL", lines: []string{".bail on", "SELECT 1 AS a;", "SELECT nope;", "SELECT 2 AS b;"}, bail: true, out: "a\n1\n"},
		{name: ".bail on, a dot command", lines: []string{".bail on", ".nosuch", "SELECT 2 AS b;"}, bail: true, out: ""},
		{name: "Options.Bail", opt: repl.Options{Bail: true}, lines: []string{"SELECT nope; SELECT 2 AS b;", "SELECT 3 AS c;"}, bail: true, out: ""},
		{name: ".bail on, Ctrl-D on a continuation line", lines: []string{".bail on", "SELECT 1 AS a;", "SELECT nope"}, bail: true, out: "a\n1\n"},
		{name: "Ctrl-D on a continuation line, no bail", lines: []string{"SELECT nope"}, out: ""},
		{name: ".bail off again", opt: repl.Options{Bail: true}, lines: []string{".bail off", "SELECT nope;", "SELECT 3 AS c;"}, out: "c\n3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.Header = true
			e := newEnv(t, tt.opt, ref("sample.tet"))
			err := e.sh.Interactive(context.Background(), &fakeLines{lines: tt.lines})
			if got := errors.Is(err, repl.ErrBail); got != tt.bail {
				t.Errorf("Interactive: %v, want ErrBail %v", err, tt.bail)
			}
			if got := e.stdout.String(); got != tt.out {
				t.Errorf("stdout %q, want %q", got, tt.out)
			}
			if n := strings.Count(e.stderr.String(), "Error: "); n != 1 {
				t.Errorf("stderr %q: want the error printed once", e.stderr)
			}
		})
	}
}

// TestWidth: .width sets the column widths of the grid modes, .show
// lists them, .width alone resets them; bad numbers are refused.
func TestWidth(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{Header: true}, ref("sample.tet"))
	const q = "SELECT 'abcdef' AS name, 12345 AS n, 'x' AS c"
	e.exec(t, ".mode column", ".width 4 -6", q, ".show", ".width", q, ".show")
	want := "name       n  c\n----  ------  -\nabc…   12345  x\n"
	out := e.stdout.String()
	if !strings.HasPrefix(out, want) {
		t.Errorf("stdout\n%s\nwant first\n%s", out, want)
	}
	if !strings.Contains(out, "     width: 4 -6\n") || !strings.Contains(out, "     width: auto\n") {
		t.Errorf(".show: %q", out)
	}
	if !strings.Contains(out, "name    n      c\n------  -----  -\nabcdef  12345  x\n") {
		t.Errorf("after .width: %q", out)
	}
	for _, bad := range []string{".width x", ".width 1.5", ".width 99999"} {
		if err := e.sh.Exec(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "usage: .width") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
