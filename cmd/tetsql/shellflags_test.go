package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shellOption is one option of sqlite3 or DuckDB's shell as a user
// types it, and what tetsql does with it.
type shellOption struct {
	name   string   // the option, as in sqlite3 -help or DuckDB's docs
	args   []string // the option and its values
	stdin  string
	sql    string // the SQL argument ("" = none)
	code   int
	stdout string // exact (checked when code is 0 or stderr is "")
	stderr string // exact when code is 2, else a substring ("" = any)
}

const (
	modesText   = "box table csv tsv json jsonl markdown line list column parquet arrow"
	storageText = "sqlite3 storage options do not apply to tetsql (it reads .tet, Blosc2 and Tensogram files, never writes them)"
	memoryText  = "sqlite3 memory options do not apply to tetsql; its own limits are --mem-limit, --cache-budget and --max-chunk-bytes"
	sepText     = "tetsql's modes have fixed separators: use --mode csv (comma), tsv (tab) or list (|)"
	shellQuery  = "SELECT station, station_label FROM elevation WHERE station < 2"
)

// refused is the case of an option tetsql refuses with why.
func refused(args []string, why string) shellOption {
	return shellOption{name: strings.TrimLeft(args[0], "-"), args: args, code: exitUsage,
		stderr: "Error: " + args[0] + ": " + why + "\nTry 'tetsql --help'.\n"}
}

// mapped is the case of an option tetsql takes, with the SQL argument
// shellQuery and its output.
func mapped(args []string, stdout string) shellOption {
	return shellOption{name: strings.TrimLeft(args[0], "-"), args: args, sql: shellQuery, stdout: stdout}
}

// shellOptions are every option of sqlite3 3.40 (sqlite3 -help and the
// undocumented ones its main() reads) and of DuckDB's shell.
func shellOptions(t *testing.T) []shellOption {
	dir := t.TempDir()
	initFile := filepath.Join(dir, "init.sql")
	if err := os.WriteFile(initFile, []byte(".mode line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "script.sql")
	if err := os.WriteFile(script, []byte("SELECT 7 AS s;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const csvOut = "station,station_label\n0,Longyearbyen\n1,Nuuk\n"
	const errThenOK = "SELECT nope;\nSELECT 2 AS b;\n"
	return []shellOption{
		refused([]string{"-A", "t", "x.sqlar"}, "tetsql reads no SQLite archives (sqlite3's .archive)"),
		refused([]string{"-append"}, storageText),
		refused([]string{"-ascii"}, "tetsql has no ascii mode (modes: "+modesText+")"),
		// -bail ends the interactive shell at its first error.
		{name: "bail", args: []string{"-bail", "-interactive"}, stdin: errThenOK, code: 1, stderr: "no such column: nope"},
		// -batch: stdin is a script, which stops at its first error.
		{name: "batch", args: []string{"-batch"}, stdin: errThenOK, code: 1, stderr: "stdin:1: no such column: nope"},
		mapped([]string{"-box"}, "┌─────────┬───────────────┐\n│ station │ station_label │\n├─────────┼───────────────┤\n│       0 │ Longyearbyen  │\n│       1 │ Nuuk          │\n└─────────┴───────────────┘\n"),
		mapped([]string{"-column"}, "station  station_label\n-------  -------------\n0        Longyearbyen\n1        Nuuk\n"),
		{name: "cmd", args: []string{"-cmd", ".headers off"}, sql: shellQuery, stdout: "0,Longyearbyen\n1,Nuuk\n"},
		mapped([]string{"-csv"}, csvOut),
		refused([]string{"-deserialize"}, storageText),
		{name: "echo", args: []string{"-echo"}, stdin: "SELECT 3 AS x;\n", stdout: "SELECT 3 AS x;\nx\n3\n"},
		{name: "init", args: []string{"-init", initFile}, sql: "SELECT 1 AS a", stdout: "    a = 1\n"},
		mapped([]string{"-header"}, csvOut),
		mapped([]string{"-noheader"}, "0,Longyearbyen\n1,Nuuk\n"),
		{name: "help", args: []string{"-help"}, stdout: "*Usage: tetsql"},
		refused([]string{"-html"}, "tetsql has no html mode (modes: "+modesText+")"),
		// -interactive: the shell on a pipe; an error does not end it.
		{name: "interactive", args: []string{"-interactive"}, stdin: errThenOK, stdout: "b\n2\n", stderr: "no such column: nope"},
		mapped([]string{"-json"}, `[{"station":0,"station_label":"Longyearbyen"},`+"\n"+`{"station":1,"station_label":"Nuuk"}]`+"\n"),
		mapped([]string{"-line"}, "      station = 0\nstation_label = Longyearbyen\n\n      station = 1\nstation_label = Nuuk\n"),
		mapped([]string{"-list"}, "station|station_label\n0|Longyearbyen\n1|Nuuk\n"),
		refused([]string{"-lookaside", "1200", "100"}, memoryText),
		mapped([]string{"-markdown"}, "| station | station_label |\n|--------:|---------------|\n|       0 | Longyearbyen  |\n|       1 | Nuuk          |\n"),
		refused([]string{"-maxsize", "1000"}, storageText),
		refused([]string{"-memtrace"}, memoryText),
		refused([]string{"-mmap", "0"}, storageText),
		refused([]string{"-newline", "\r\n"}, sepText),
		refused([]string{"-nofollow"}, storageText),
		refused([]string{"-nonce", "x"}, "tetsql's --safe has no escape: safe mode cannot be lifted from SQL"),
		{name: "nullvalue", args: []string{"-nullvalue", "NA"}, sql: "SELECT NULL AS a", stdout: "a\nNA\n"},
		refused([]string{"-pagecache", "4096", "100"}, memoryText),
		refused([]string{"-quote"}, "tetsql has no quote mode (modes: "+modesText+")"),
		mapped([]string{"-readonly"}, csvOut),
		{name: "safe", args: []string{"-safe"}, sql: "CREATE TABLE t(a)", code: 1, stderr: "not allowed in safe mode: CREATE TABLE"},
		refused([]string{"-separator", ","}, sepText),
		// -stats: tetsql's scan statistics, to stderr.
		{name: "stats", args: []string{"-stats"}, sql: "SELECT count(*) AS n FROM elevation", stdout: "n\n50\n", stderr: "stats: demo.elevation"},
		mapped([]string{"-table"}, "+---------+---------------+\n| station | station_label |\n+---------+---------------+\n|       0 | Longyearbyen  |\n|       1 | Nuuk          |\n+---------+---------------+\n"),
		mapped([]string{"-tabs"}, "station\tstation_label\n0\tLongyearbyen\n1\tNuuk\n"),
		{name: "version", args: []string{"-version"}, stdout: "*tetsql "},
		refused([]string{"-vfs", "unix-dotfile"}, storageText),
		refused([]string{"-zip"}, storageText),
		// sqlite3's undocumented options.
		refused([]string{"-backslash"}, "tetsql reads SQL as written, without backslash escapes"),
		refused([]string{"-eqp"}, "tetsql prints no automatic query plans: put EXPLAIN QUERY PLAN before the statement"),
		refused([]string{"-eqpfull"}, "tetsql prints no automatic query plans: put EXPLAIN or EXPLAIN QUERY PLAN before the statement"),
		refused([]string{"-heap", "1000000"}, memoryText),
		{name: "scanstats", args: []string{"-scanstats"}, sql: "SELECT count(*) AS n FROM elevation", stdout: "n\n50\n", stderr: "stats: demo.elevation"},
		refused([]string{"-threadsafe", "0"}, memoryText),
		// sqlite3's build-dependent options.
		refused([]string{"-sorterref", "1000"}, memoryText),
		refused([]string{"-multiplex"}, storageText),
		// DuckDB's shell.
		{name: "c", args: []string{"-c", "SELECT 5 AS c"}, stdout: "c\n5\n"},
		{name: "f", args: []string{"-f", script}, stdout: "s\n7\n"},
		{name: "s", args: []string{"-s", "SELECT 6 AS s"}, stdout: "s\n6\n"},
		{name: "h", args: []string{"-h"}, stdout: "*Usage: tetsql"},
		mapped([]string{"-jsonlines"}, `{"station":0,"station_label":"Longyearbyen"}`+"\n"+`{"station":1,"station_label":"Nuuk"}`+"\n"),
		{name: "no-stdin", args: []string{"-no-stdin", "-cmd", "SELECT 8 AS n"}, stdin: "SELECT 9 AS m;\n", stdout: "n\n8\n"},
		refused([]string{"-storage-version", "v1.2.0"}, storageText),
		refused([]string{"-ui"}, "tetsql has no web UI"),
		refused([]string{"-unsigned"}, "tetsql loads no extensions"),
		refused([]string{"-dark-mode"}, "tetsql does not colour SQL"),
		refused([]string{"-light-mode"}, "tetsql does not colour SQL"),
		mapped([]string{"-agent"}, "| station | station_label |\n|--------:|---------------|\n|       0 | Longyearbyen  |\n|       1 | Nuuk          |\n"),
		mapped([]string{"-no-agent"}, csvOut),
		refused([]string{"-unredacted"}, "tetsql keeps no secrets to redact (DuckDB's CREATE SECRET)"),
		refused([]string{"-connect", "quack"}, "tetsql connects to no remote database: it reads local .tet, Blosc2 and Tensogram files"),
		refused([]string{"-format"}, "tetsql does not format SQL"),
		refused([]string{"-format-file", "q.sql"}, "tetsql does not format SQL"),
		// Two dashes, as sqlite3 and DuckDB allow.
		refused([]string{"--html"}, "tetsql has no html mode (modes: "+modesText+")"),
		mapped([]string{"--noheader"}, "0,Longyearbyen\n1,Nuuk\n"),
	}
}

// TestRun_shellOptions: each option of sqlite3 and DuckDB has the
// effect of the tetsql flag it stands for, or is refused (exit 2) with
// a message naming it and what to use instead.
func TestRun_shellOptions(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no ~/.tetsqlrc
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	for _, tc := range shellOptions(t) {
		args := append(append([]string{}, tc.args...), demo)
		if tc.sql != "" {
			args = append(args, tc.sql)
		}
		code, out, errs := runCLI(t, tc.stdin, args...)
		switch {
		case code != tc.code:
			t.Errorf("%q: exit %d, want %d (stdout %q, stderr %q)", tc.args, code, tc.code, out, errs)
		case tc.code == exitUsage && errs != tc.stderr:
			t.Errorf("%q: stderr %q, want %q", tc.args, errs, tc.stderr)
		case tc.code != exitUsage && !strings.Contains(errs, tc.stderr):
			t.Errorf("%q: stderr %q lacks %q", tc.args, errs, tc.stderr)
		case strings.HasPrefix(tc.stdout, "*") && !strings.HasPrefix(out, tc.stdout[1:]):
			t.Errorf("%q: stdout %q, want it to start %q", tc.args, out, tc.stdout[1:])
		case !strings.HasPrefix(tc.stdout, "*") && (tc.code == 0 || tc.stdout != "") && out != tc.stdout:
			t.Errorf("%q: stdout %q, want %q", tc.args, out, tc.stdout)
		}
	}
}

// TestShellOptions_complete: the table above covers every option that
// sqlite3 -help lists (when sqlite3 is installed) and every entry of
// shellFlags.
func TestShellOptions_complete(t *testing.T) {
	have := map[string]bool{}
	for _, tc := range shellOptions(t) {
		have[tc.name] = true
	}
	for name := range shellFlags {
		if !have[name] {
			t.Errorf("shellFlags has %q, the test table does not", name)
		}
	}
	path, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 is not installed: its -help is not compared")
	}
	help, _ := exec.Command(path, "-help").CombinedOutput() // exits 1
	opts := regexp.MustCompile(`(?m)^\s+-(\[no\])?([A-Za-z][\w-]*)`).FindAllStringSubmatch(string(help), -1)
	if len(opts) < 30 {
		t.Fatalf("sqlite3 -help lists %d options:\n%s", len(opts), help)
	}
	for _, m := range opts {
		names := []string{m[2]}
		if m[1] != "" {
			names = append(names, "no"+m[2])
		}
		for _, n := range names {
			if !have[n] {
				t.Errorf("sqlite3 -help lists -%s, the test table does not", n)
			}
		}
	}
}

// TestRun_flagErrors: unknown flags in either spelling, flags missing
// their value and values pflag cannot parse are usage errors (exit 2)
// in tetsql's words.
func TestRun_flagErrors(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	tests := []struct {
		args []string
		want string // the message after "Error: "
	}{
		{[]string{"-foo"}, "unknown flag -foo"},
		{[]string{"--foo"}, "unknown flag --foo"},
		{[]string{"-x"}, "unknown flag -x"},
		{[]string{"--c"}, "unknown flag --c"},
		{[]string{"-batc"}, "unknown flag -batc — did you mean --batch?"},
		{[]string{"--stat"}, "unknown flag --stat — did you mean --stats?"},
		{[]string{"-noheadr"}, "unknown flag -noheadr — did you mean -noheader or --no-header?"},
		{[]string{"--max-row", "5"}, "unknown flag --max-row — did you mean --max-rows?"},
		// A flag where a value belongs, or no value at all.
		{[]string{"--max-rows", "--csv"}, "--max-rows needs a value, not the flag --csv"},
		{[]string{"-mode", "-csv"}, "-mode needs a value, not the flag -csv"},
		{[]string{"-o", "-json"}, "-o needs a value, not the flag -json"},
		{[]string{"--statement-timeout", "-bail"}, "--statement-timeout needs a value, not the flag -bail"},
		// Values that do not parse.
		{[]string{"--max-rows", "abc"}, `--max-rows "abc": want a number of rows (0 = any)`},
		{[]string{"--max-rows", "-5"}, "--max-rows -5: want a number of rows (0 = any)"},
		{[]string{"--max-rows=99999999999999999999"}, `--max-rows "99999999999999999999": want a number of rows (0 = any)`},
		{[]string{"--read-ahead", "x"}, `--read-ahead "x": want a number of chunks from 0 to 64 (0 = off)`},
		{[]string{"--csv=3"}, `--csv "3": want true or false`},
		{[]string{"-header=maybe"}, `--header "maybe": want true or false`},
		{[]string{"-line=maybe"}, `-line "maybe": want true or false`},
		{[]string{"-batch", "-interactive"}, "--batch and --interactive both given"},
		{[]string{"-no-stdin", "-f", "-"}, "--no-stdin: stdin is not read, so - names no file for -f or -init"},
		{[]string{"-init", "-", "--no-stdin"}, "--no-stdin: stdin is not read, so - names no file for -f or -init"},
	}
	for _, tc := range tests {
		code, out, errs := runCLI(t, "", append(tc.args, demo, "SELECT 1")...)
		want := "Error: " + tc.want + "\nTry 'tetsql --help'.\n"
		if code != exitUsage || errs != want || out != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want %d, %q", tc.args, code, errs, out, exitUsage, want)
		}
	}
	// Sizes and durations that do not parse (checked after the flags).
	for _, tc := range []struct{ args []string }{
		{[]string{"--mem-limit", "lots"}},
		{[]string{"--cache-budget", "-1"}},
		{[]string{"--statement-timeout", "soon"}},
		{[]string{"--read-ahead-bytes", "0"}},
	} {
		code, _, errs := runCLI(t, "", append(tc.args, demo, "SELECT 1")...)
		if code != exitUsage || !strings.HasPrefix(errs, "Error: "+tc.args[0]+" \""+tc.args[1]+"\": want a ") || strings.Contains(errs, "strconv") {
			t.Errorf("%q: exit %d, stderr %q", tc.args, code, errs)
		}
	}
}

// TestIsInteractive: -batch keeps a terminal's stdin a script,
// -interactive makes a pipe's the shell, -no-stdin reads neither, and
// SQL, -c or -f on the command line never open the shell.
func TestIsInteractive(t *testing.T) {
	tests := []struct {
		o     options
		inTTY bool
		want  bool
	}{
		{options{}, true, true},
		{options{}, false, false},
		{options{batch: true}, true, false},
		{options{interactive: true}, false, true},
		{options{interactive: true, sql: "SELECT 1", hasSQL: true}, false, false},
		{options{hasSQL: true}, true, false}, // an empty SQL argument
		{options{interactive: true, commands: []string{".tables"}}, true, false},
		{options{interactive: true, scripts: []string{"x.sql"}}, false, false},
		{options{noStdin: true}, true, false},
		{options{noStdin: true, interactive: true}, false, false},
	}
	for i, tc := range tests {
		if got := isInteractive(&tc.o, tc.inTTY); got != tc.want {
			t.Errorf("%d: isInteractive(%+v, tty=%v) = %v, want %v", i, tc.o, tc.inTTY, got, tc.want)
		}
	}
}
