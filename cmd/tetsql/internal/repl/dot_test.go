package repl_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestDotCommands checks the visible effect of each dot command.
func TestDotCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name   string
		cmds   []string
		stdout []string // substrings expected on stdout
		not    []string // substrings that must not appear
		file   string   // file whose content to check instead of stdout
		stderr []string
	}{
		{name: "help", cmds: []string{".help"}, stdout: []string{".datasets", ".verify [--deep]", ".quit", "also .exit"}},
		{name: "help lists sqlite3's habits", cmds: []string{".help"}, stdout: []string{".echo on|off", ".bail on|off", ".width [N ...]", ".parameter init|list|clear|set NAME VALUE|unset NAME"}},
		{name: "help param", cmds: []string{".help param"}, stdout: []string{".parameter init|list", "unset ones are NULL"}},
		{name: "help one", cmds: []string{".help open"}, stdout: []string{".open FILE [AS ALIAS]"}, not: []string{".tables"}},
		{name: "tables", cmds: []string{".tables"}, stdout: []string{"sample.temperature", "sample.tet_chunks"}},
		{name: "tables pattern", cmds: []string{".tables tet_d%"}, stdout: []string{"sample.tet_datasets", "sample.tet_dims"}, not: []string{"temperature"}},
		{name: "schema", cmds: []string{".schema temperature"}, stdout: []string{"CREATE TABLE sample.temperature(d0 INTEGER, d1 INTEGER, value FLOAT32)"}},
		{name: "schema of a temp table", cmds: []string{"CREATE TEMP TABLE kept(x INTEGER)", ".schema kept"}, stdout: []string{"CREATE TABLE kept(x INTEGER);"}},
		{name: "datasets", cmds: []string{".datasets"}, stdout: []string{"sample: ", "sample.tet", "temperature  f32 [2×3]  chunks [2×2] → 2 chunks", "d1         size 3"}},
		{name: "info", cmds: []string{".info"}, stdout: []string{"layout_version = 1", "dataset_count = 1", "footer = absent"}},
		{name: "info by alias", cmds: []string{".info sample"}, stdout: []string{"schema = sample"}},
		{name: "verify", cmds: []string{".verify"}, stdout: []string{"sample: ", ": ok (1 dataset, 2 chunks)"}},
		{name: "verify deep", cmds: []string{".verify --deep"}, stdout: []string{"ok (1 dataset, 2 chunks, 2 decoded)"}},
		{name: "mode json", cmds: []string{".mode json", "SELECT d0, value FROM temperature WHERE d1 = 0 ORDER BY d0"},
			stdout: []string{`[{"d0":0,"value":1.0},`, `{"d0":1,"value":4.0}]`}},
		{name: "mode list", cmds: []string{".mode list", ".nullvalue NA", "SELECT 1 AS a, 'x|y' AS b, NULL AS c, 'tab\there' AS d"},
			stdout: []string{"a|b|c|d\n1|x|y|NA|tab\there\n"}},
		{name: "mode column", cmds: []string{".mode column", "SELECT 1 AS a, 'xx' AS bb UNION ALL SELECT 22, NULL"},
			stdout: []string{"a   bb\n--  --\n1   xx\n22\n"}},
		{name: "mode shows current", cmds: []string{".mode line", ".mode"}, stdout: []string{"current output mode: line (set)"}},
		{name: "headers off", cmds: []string{".headers off", "SELECT 7 AS n"}, stdout: []string{"7\n"}, not: []string{"n\n"}},
		{name: "nullvalue", cmds: []string{".nullvalue NULL", "SELECT NULL AS x"}, stdout: []string{"x\nNULL\n"}},
		{name: "timer", cmds: []string{".timer on", "SELECT 1"}, stderr: []string{"Run Time: real "}},
		{name: "stats", cmds: []string{".stats on", "SELECT * FROM temperature WHERE d1 = 2"},
			stderr: []string{"stats: sample.temperature chunks=1/2 rows=2"}},
		{name: "stats off", cmds: []string{".stats off", "SELECT * FROM temperature"}, not: []string{"stats:"}},
		{name: "print", cmds: []string{".print hello  world", "SELECT 1 AS a", ".print"}, stdout: []string{"hello world\na\n1\n\n"}},
		{name: "print into .output", cmds: []string{".output " + filepath.Join(dir, "p.csv"), ".print -- part 1", "SELECT 1 AS a", ".output"},
			file: filepath.Join(dir, "p.csv"), stdout: []string{"-- part 1\na\n1\n"}},
		{name: "show", cmds: []string{".mode json", ".headers off", ".nullvalue NA", ".timer on", ".show"},
			stdout: []string{"      mode: json\n", "   headers: off\n", ` nullvalue: "NA"`, "     timer: on\n", "    output: stdout\n"}},
		{name: "show habits", cmds: []string{".echo on", ".bail on", ".width 5 -3", ".param set :a 1", ".show"},
			stdout: []string{"      echo: on\n", "      bail: on\n", "     width: 5 -3\n", "parameters: 1\n"}},
		{name: "databases", cmds: []string{".databases"}, stdout: []string{"main: \"\"\n", "sample: ", "sample.tet\n"}},
		{name: "output", cmds: []string{".output " + filepath.Join(dir, "o.csv"), "SELECT 1 AS a", "SELECT 2 AS b", ".output"},
			file: filepath.Join(dir, "o.csv"), stdout: []string{"a\n1\nb\n2\n"}},
		{name: "once", cmds: []string{".once " + filepath.Join(dir, "once.json"), "SELECT 1 AS a", "SELECT 2 AS b"},
			file: filepath.Join(dir, "once.json"), stdout: []string{`[{"a":1}]`}, not: []string{"b"}},
		{name: "open", cmds: []string{".open " + ref("multichunk_u8.tet") + " AS u", "SELECT count(*) AS n FROM u.a"}, stdout: []string{"n\n"}},
		{name: "open derives a fresh alias", cmds: []string{".open " + ref("sample.tet"), "SELECT count(*) AS n FROM sample_2.temperature"}, stdout: []string{"n\n6\n"}},
		{name: "open alias=path", cmds: []string{".open s3=" + ref("sample.tet"), ".tables s3.%"}, stdout: []string{"s3.temperature"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, repl.Options{Header: true}, ref("sample.tet"))
			e.exec(t, tt.cmds...)
			out := e.stdout.String()
			if tt.file != "" {
				out = readFile(t, tt.file)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(out, s) || strings.Contains(e.stderr.String(), s) {
					t.Errorf("output has %q:\n%s%s", s, out, e.stderr)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(e.stderr.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, e.stderr)
				}
			}
		})
	}
}

func TestDotCommands_errors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{}, ref("sample.tet"))
	for cmd, want := range map[string]string{
		".nope":             `unknown command ".nope"`,
		".mode fancy":       `unknown mode "fancy"`,
		".headers maybe":    "usage: .headers on|off",
		".timer":            "usage: .timer on|off",
		".open":             "usage: .open FILE [AS ALIAS]",
		".open x.tet AS":    "usage: .open FILE [AS ALIAS]",
		".open missing.tet": "missing.tet",
		".read missing.sql": "missing.sql",
		".info other":       `no attached file "other"`,
		".verify quick":     "usage: .verify [--deep]",
		".schema nothing":   `no table matches "nothing"`,
		".open 'x":          "unterminated",
	} {
		err := e.sh.Exec(context.Background(), cmd)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", cmd, err, want)
		}
	}
	if err := e.sh.Exec(context.Background(), ".exit"); !errors.Is(err, repl.ErrQuit) {
		t.Errorf(".exit: %v", err)
	}
}

// TestRead runs a script with .read; an error stops it and names the
// file and line.
func TestRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.sql")
	os.WriteFile(good, []byte(".mode csv\nCREATE TEMP TABLE t(x);\nINSERT INTO t\n  VALUES (1), (2);\n-- done\nSELECT sum(x) AS s FROM t"), 0o644)
	bad := filepath.Join(dir, "bad.sql")
	os.WriteFile(bad, []byte("SELECT 1 AS one;\n\nSELECT *\n  FROM nope;\nSELECT 3 AS three;\n"), 0o644)
	e := newEnv(t, repl.Options{Header: true}, ref("sample.tet"))
	e.exec(t, ".read "+good)
	if out := e.stdout.String(); out != "s\n3\n" {
		t.Errorf("good script printed %q", out)
	}
	err := e.sh.Exec(context.Background(), ".read "+bad)
	if err == nil || !strings.Contains(err.Error(), "bad.sql:3: ") || !strings.Contains(repl.Message(err), "no such table: nope") {
		t.Errorf("bad script: %v", err)
	}
	if strings.Contains(e.stdout.String(), "three") {
		t.Error("the script went on after its error")
	}
	loop := filepath.Join(dir, "loop.sql")
	os.WriteFile(loop, []byte(".read "+loop+"\n"), 0o644)
	if err := e.sh.Exec(context.Background(), ".read "+loop); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("self-reading script: %v", err)
	}
}
