package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNormalizeArgs: sqlite3's single-dash flags become the long flags
// they stand for, every flag is spelt --name or --name=VALUE, and the
// positional arguments follow "--" in their order.
func TestNormalizeArgs(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"-csv", "-header", "f.tet"}, []string{"--mode=csv", "--header", "--", "f.tet"}},
		{[]string{"-json", "-noheader", "-readonly", "-bail"}, []string{"--mode=json", "--header=false", "--readonly", "--bail", "--"}},
		{[]string{"-line", "-box", "-markdown", "-table", "-list", "-tabs"}, []string{"--mode=line", "--mode=box", "--mode=markdown", "--mode=table", "--mode=list", "--mode=tsv", "--"}},
		{[]string{"-init", "rc", "-cmd", ".mode csv", "-nullvalue", "NA"}, []string{"--init=rc", "--cmd=.mode csv", "--null=NA", "--"}},
		// A flag's value and what follows "--" stay as they are.
		{[]string{"-c", "-json", "-o", "x.csv", "-f", "-"}, []string{"--command=-json", "--output=x.csv", "--file=-", "--"}},
		{[]string{"--", "-csv"}, []string{"--", "-csv"}},
		{[]string{"-safe", "-version"}, []string{"--safe", "--version", "--"}},
		{[]string{"-echo", "-bail", "-stats", "--noheader"}, []string{"--echo", "--bail", "--stats", "--header=false", "--"}},
		// tetsql's long flags with one dash; values after "=".
		{[]string{"-max-rows", "5", "--mode=csv", "-nullvalue=NA"}, []string{"--max-rows=5", "--mode=csv", "--null=NA", "--"}},
		{[]string{"--max-rows", "-5"}, []string{"--max-rows=-5", "--"}},
		// Mode options with a value, as -csv=true: on, or no effect.
		{[]string{"-line=true", "-tabs=TRUE", "--box=1", "-line=false", "-csv=false"}, []string{"--mode=line", "--mode=tsv", "--mode=box", "--csv=false", "--"}},
		{[]string{"-noheader=false", "-scanstats=true"}, []string{"--header=true", "--stats=true", "--"}},
		// The last mode and header flag wins, in command-line order.
		{[]string{"-csv", "-json", "-tabs", "--no-header=true", "-header"}, []string{"--mode=csv", "--mode=json", "--mode=tsv", "--header=false", "--header", "--"}},
		// DuckDB's -s is -c; SQL starting with a dash is positional.
		{[]string{"a.tet", "-s", "SELECT 1", "-- note\nSELECT 2"}, []string{"--command=SELECT 1", "--", "a.tet", "-- note\nSELECT 2"}},
		{[]string{"--command=SELECT 1", "-"}, []string{"--command=SELECT 1", "--", "-"}},
		// A comment holding "=" before any white space is SQL too; a
		// known flag's value may hold white space.
		{[]string{"a.tet", "--note=x\nSELECT 5"}, []string{"--", "a.tet", "--note=x\nSELECT 5"}},
		{[]string{"-x=1 SELECT 5"}, []string{"--", "-x=1 SELECT 5"}},
		{[]string{"--null=a b", "-cmd=.mode csv", "-nullvalue=N A"}, []string{"--null=a b", "--cmd=.mode csv", "--null=N A", "--"}},
		{[]string{"-c=SELECT 1", "-- x=y\tSELECT 2"}, []string{"--command=SELECT 1", "--", "-- x=y\tSELECT 2"}},
	}
	for _, tc := range tests {
		o := &options{}
		fs := newFlagSet(o)
		got, err := normalizeArgs(fs, tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("normalizeArgs(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestRun_sqlite3Flags: sqlite3's single-dash flags pick the modes and
// settings they pick in sqlite3.
func TestRun_sqlite3Flags(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no ~/.tetsqlrc
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	const q = "SELECT station, station_label FROM elevation WHERE station < 2"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-csv", "-noheader"}, "0,Longyearbyen\n1,Nuuk\n"},
		{[]string{"-list"}, "station|station_label\n0|Longyearbyen\n1|Nuuk\n"},
		{[]string{"-json"}, `[{"station":0,"station_label":"Longyearbyen"},` + "\n" + `{"station":1,"station_label":"Nuuk"}]` + "\n"},
		{[]string{"-line", "-readonly", "-bail"}, "      station = 0\nstation_label = Longyearbyen\n\n      station = 1\nstation_label = Nuuk\n"},
		{[]string{"-markdown"}, "| station | station_label |\n|--------:|---------------|\n|       0 | Longyearbyen  |\n|       1 | Nuuk          |\n"},
		// The last mode flag wins, and the last of -header and -noheader.
		{[]string{"-csv", "-json"}, `[{"station":0,"station_label":"Longyearbyen"},` + "\n" + `{"station":1,"station_label":"Nuuk"}]` + "\n"},
		{[]string{"-json", "--mode", "list", "-csv"}, "station,station_label\n0,Longyearbyen\n1,Nuuk\n"},
		{[]string{"-tabs", "-csv", "-noheader"}, "0,Longyearbyen\n1,Nuuk\n"},
		{[]string{"-csv", "-tabs"}, "station\tstation_label\n0\tLongyearbyen\n1\tNuuk\n"},
		{[]string{"-box", "-list"}, "station|station_label\n0|Longyearbyen\n1|Nuuk\n"},
		{[]string{"-header", "-noheader", "-csv"}, "0,Longyearbyen\n1,Nuuk\n"},
		{[]string{"-noheader", "-header", "-csv"}, "station,station_label\n0,Longyearbyen\n1,Nuuk\n"},
		{[]string{"-csv", "-json=false"}, "station,station_label\n0,Longyearbyen\n1,Nuuk\n"},
	}
	for _, tc := range tests {
		code, out, errs := runCLI(t, "", append(append([]string{}, tc.args...), demo, q)...)
		if code != 0 || out != tc.want {
			t.Errorf("%v: exit %d, stdout %q, want %q (stderr %q)", tc.args, code, out, tc.want, errs)
		}
	}
}

// TestRun_initFile: ~/.tetsqlrc runs first, or -init FILE instead (one
// that is missing is reported), or nothing with --no-init; -cmd runs after it, before the
// SQL, and the SQL still runs. The command line's settings win over
// the init file's, as in sqlite3.
func TestRun_initFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	if err := os.WriteFile(filepath.Join(home, ".tetsqlrc"), []byte(".mode json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "init.sql")
	if err := os.WriteFile(other, []byte(".mode csv\n.headers off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{demo, "SELECT 1 AS a"}, 0, `[{"a":1}]` + "\n"},
		{[]string{"-init", other, demo, "SELECT 1 AS a"}, 0, "1\n"},
		{[]string{"--no-init", "--csv", demo, "SELECT 1 AS a"}, 0, "a\n1\n"},
		{[]string{"-cmd", ".mode line", demo, "SELECT 1 AS a"}, 0, "    a = 1\n"},
		// A missing init file is reported and the run goes on, as in
		// sqlite3 (without ~/.tetsqlrc: -init replaces it).
		{[]string{"-init", filepath.Join(home, "missing"), demo, "SELECT 1 AS a"}, 0, "a\n1\n"},
		// The command line's flags win over the init file's settings.
		{[]string{"-csv", demo, "SELECT 1 AS a"}, 0, "a\n1\n"},
		{[]string{"-init", other, "-header", demo, "SELECT 1 AS a"}, 0, "a\n1\n"},
		{[]string{"-init", other, "-line", demo, "SELECT NULL AS a"}, 0, "    a = \n"},
		{[]string{"-init", other, "-nullvalue", "-", demo, "SELECT NULL AS a"}, 0, "-\n"},
	}
	for _, tc := range tests {
		code, out, errs := runCLI(t, "", tc.args...)
		if code != tc.code || out != tc.want {
			t.Errorf("%v: exit %d, stdout %q; want %d, %q (stderr %q)", tc.args, code, out, tc.code, tc.want, errs)
		}
		if missing := strings.Contains(strings.Join(tc.args, " "), "missing"); missing != strings.Contains(errs, "Error: init file "+filepath.Join(home, "missing")+": no such file or directory") {
			t.Errorf("%v: stderr %q", tc.args, errs)
		}
	}
}

// TestRun_initAndCmdErrors: as in sqlite3, an error in the init file or
// in a -cmd is reported and the run goes on (exit 0), unless -bail is
// given (exit 1, the SQL never runs). The init file stops at its error.
func TestRun_initAndCmdErrors(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	bad := filepath.Join(t.TempDir(), "bad.sql")
	if err := os.WriteFile(bad, []byte("SELECT nosuch;\n.mode json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string // the first line of stderr
	}{
		{[]string{"-init", bad, "-csv", demo, "SELECT 1 AS a"}, 0, "a\n1\n", "Error: init file " + bad + ":1: no such column: nosuch"},
		{[]string{"-init", bad, "-bail", "-csv", demo, "SELECT 1 AS a"}, 1, "", "Error: init file " + bad + ":1: no such column: nosuch"},
		{[]string{"-cmd", "SELECT nosuch", "-csv", demo, "SELECT 1 AS a"}, 0, "a\n1\n", "Error: no such column: nosuch"},
		{[]string{"-cmd", "SELECT nosuch", "-bail", "-csv", demo, "SELECT 1 AS a"}, 1, "", "Error: no such column: nosuch"},
		{[]string{"-cmd", ".quit", "-csv", demo, "SELECT 1 AS a"}, 0, "", ""},
		{[]string{"-init", filepath.Dir(bad), "-csv", demo, "SELECT 1 AS a"}, 0, "a\n1\n", "Error: init file " + filepath.Dir(bad) + ": is a directory"},
		{[]string{"-init", filepath.Dir(bad) + "/missing", "-bail", "-csv", demo, "SELECT 1 AS a"}, 1, "", "Error: init file " + filepath.Dir(bad) + "/missing: no such file or directory"},
	}
	for _, tc := range tests {
		code, out, errs := runCLI(t, "", tc.args...)
		first, _, _ := strings.Cut(errs, "\n")
		if code != tc.code || out != tc.stdout || first != tc.stderr {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, first line %q", tc.args, code, out, errs, tc.code, tc.stdout, tc.stderr)
		}
		if strings.Count(errs, "Error:") > 1 {
			t.Errorf("%v: the error is reported more than once: %q", tc.args, errs)
		}
	}
}
