package repl_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestOutput_modeFromExtension: .output and .once take the format their
// file's extension names and say so on stderr, unless the mode was
// chosen for that output (.mode after .output FILE, or a mode flag with
// -o); a mode chosen before .output is the terminal's and comes back
// after it. A chosen mode that contradicts a binary extension is
// refused.
func TestOutput_modeFromExtension(t *testing.T) {
	t.Parallel()
	const q = "SELECT 1 AS a, 'x' AS b"
	tests := []struct {
		name   string
		opt    repl.Options
		cmds   func(dir string) []string // the last one's file is checked
		file   string
		want   string // the file, exactly
		note   string // stderr holds this line ("" = no note)
		stdout string // stdout, exactly
	}{
		{name: "json after .mode box", file: "x.json", cmds: func(d string) []string {
			return []string{".mode box", ".output " + d, q, ".output", q}
		}, want: `[{"a":1,"b":"x"}]` + "\n", note: "(writing DIR as json)",
			stdout: "┌───┬───┐\n│ a │ b │\n├───┼───┤\n│ 1 │ x │\n└───┴───┘\n"},
		{name: "csv", file: "x.csv", cmds: func(d string) []string { return []string{".mode json", ".once " + d, q} },
			want: "a,b\n1,x\n", note: "(writing DIR as csv)"},
		{name: "tsv", file: "x.tsv", cmds: func(d string) []string { return []string{".once " + d, q} },
			want: "a\tb\n1\tx\n", note: "(writing DIR as tsv)"},
		{name: "jsonl", file: "x.jsonl", cmds: func(d string) []string { return []string{".once " + d, q} },
			want: `{"a":1,"b":"x"}` + "\n", note: "(writing DIR as jsonl)"},
		{name: "ndjson", file: "x.ndjson", cmds: func(d string) []string { return []string{".once " + d, q} },
			want: `{"a":1,"b":"x"}` + "\n", note: "(writing DIR as jsonl)"},
		{name: "md", file: "x.md", cmds: func(d string) []string { return []string{".mode csv", ".once " + d, q} },
			want: "| a | b |\n|--:|---|\n| 1 | x |\n", note: "(writing DIR as markdown)"},
		{name: ".mode after .output wins", file: "x.json", cmds: func(d string) []string {
			return []string{".output " + d, ".mode csv", q, ".output"}
		}, want: "a,b\n1,x\n", note: "(writing DIR as json)"},
		{name: ".mode after .once wins", file: "x.json", cmds: func(d string) []string {
			return []string{".once " + d, ".mode list", q}
		}, want: "a|b\n1|x\n", note: "(writing DIR as json)"},
		{name: "a name of no format takes the mode set, silently", file: "x.out", cmds: func(d string) []string {
			return []string{".mode json", ".once " + d, q}
		}, want: `[{"a":1,"b":"x"}]` + "\n"},
		{name: "a name of no format without a mode is csv, and says so", file: "x.out", cmds: func(d string) []string {
			return []string{".once " + d, q}
		}, want: "a,b\n1,x\n", note: "(writing DIR as csv)"},
		{name: "a mode flag with -o applies to it, silently", opt: repl.Options{Mode: "list"}, file: "x.json", cmds: func(d string) []string {
			return []string{"-o " + d, q}
		}, want: "a|b\n1|x\n"},
		{name: "-o after an init file's .mode takes the extension, silently", file: "x.json", cmds: func(d string) []string {
			return []string{".mode box", "-o " + d, q}
		}, want: `[{"a":1,"b":"x"}]` + "\n"},
		{name: "-o without a mode flag takes the extension, silently", file: "x.md", cmds: func(d string) []string {
			return []string{"-o " + d, q}
		}, want: "| a | b |\n|--:|---|\n| 1 | x |\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.opt.Header = true
			e := newEnv(t, tt.opt, ref("sample.tet"))
			path := filepath.Join(t.TempDir(), tt.file)
			for _, c := range tt.cmds(path) {
				if p, ok := strings.CutPrefix(c, "-o "); ok { // as the command sets -o
					if err := e.sh.SetOutput(p); err != nil {
						t.Fatal(err)
					}
					continue
				}
				e.exec(t, c)
			}
			if err := e.sh.CloseAfter(nil); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path); got != tt.want {
				t.Errorf("%s holds %q, want %q", tt.file, got, tt.want)
			}
			note := strings.ReplaceAll(tt.note, "DIR", path)
			if got := e.stderr.String(); (note == "") != (got == "") || note != "" && !strings.Contains(got, note+"\n") {
				t.Errorf("stderr %q, want the line %q", got, note)
			}
			if got := e.stdout.String(); got != tt.stdout {
				t.Errorf("stdout %q, want %q", got, tt.stdout)
			}
		})
	}
}

// TestOutput_binaryExtension: a Parquet or Arrow extension picks its
// format even after another .mode; a mode chosen for the file that
// contradicts it is refused, and the file is not written.
func TestOutput_binaryExtension(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, repl.Options{}, ref("sample.tet"))
	const q = "SELECT d0, d1, value FROM temperature"
	e.exec(t, ".mode box", ".once "+filepath.Join(dir, "a.parquet"), q, ".once "+filepath.Join(dir, "b.arrows"), q,
		".once "+filepath.Join(dir, "c.feather"), q)
	if n, _ := parquetRows(t, []byte(readFile(t, filepath.Join(dir, "a.parquet")))); n != 6 {
		t.Errorf("a.parquet: %d rows", n)
	}
	if n, _ := arrowRows(t, []byte(readFile(t, filepath.Join(dir, "b.arrows"))), false); n != 6 {
		t.Errorf("b.arrows: %d rows", n)
	}
	if n, _ := arrowRows(t, []byte(readFile(t, filepath.Join(dir, "c.feather"))), true); n != 6 {
		t.Errorf("c.feather: %d rows", n)
	}
	for _, want := range []string{"a.parquet as parquet)\n", "b.arrows as arrow)\n", "c.feather as arrow)\n"} {
		if !strings.Contains(e.stderr.String(), want) {
			t.Errorf("stderr %q lacks %q", e.stderr, want)
		}
	}
	for _, c := range [][2]string{{"csv", "d.parquet"}, {"arrow", "e.pq"}, {"parquet", "f.arrows"}} {
		e.exec(t, ".once "+filepath.Join(dir, c[1]), ".mode "+c[0])
		err := e.sh.Exec(context.Background(), q)
		if err == nil || !strings.Contains(err.Error(), "mode "+c[0]+" does not write") {
			t.Errorf(".once %s, .mode %s: %v", c[1], c[0], err)
		}
		if readable(filepath.Join(dir, c[1])) {
			t.Errorf("%s was written", c[1])
		}
	}
	// A statement without results is no contradiction.
	e.exec(t, ".once "+filepath.Join(dir, "g.parquet"), ".mode csv", "CREATE TEMP TABLE tt(x)")
}

// TestDatabases_glob: .databases shows a glob's schema by its pattern and
// the number of files it matches.
func TestDatabases_glob(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{}, many, ref("sample.tet"))
	e.exec(t, ".databases")
	out := e.stdout.String()
	for _, want := range []string{"main: \"\"\n", "many: " + many + " (glob, 3 files)\n", "sample: "} {
		if !strings.Contains(out, want) {
			t.Errorf(".databases:\n%s\nlacks %q", out, want)
		}
	}
}

// readable reports whether path exists.
func readable(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
