package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun_echo: -echo (--echo) prints each command of a script before
// its results, as read; as in sqlite3, not the command-line items (-c,
// -cmd, the SQL argument).
func TestRun_echo(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no ~/.tetsqlrc
	sample := ref("sample.tet")
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"-echo", "-c", ".headers off", "-c", "SELECT 1; SELECT 2", sample}, "", "1\n2\n"},
		{[]string{"-echo", "-f", "-", sample}, ".headers off\nSELECT 1;\n", ".headers off\nSELECT 1;\n1\n"},
		{[]string{"--echo", sample}, "SELECT 3 AS x;\n\nSELECT\n 4 AS y;\n", "SELECT 3 AS x;\nx\n3\nSELECT\n 4 AS y;\ny\n4\n"},
		{[]string{"-echo", sample, "SELECT 5 AS z"}, "", "z\n5\n"},
		{[]string{sample, "SELECT 6 AS w"}, "", "w\n6\n"},
	}
	for _, tc := range tests {
		code, out, errs := runCLI(t, tc.stdin, tc.args...)
		if code != 0 || out != tc.want {
			t.Errorf("%q: exit %d, stdout %q, want %q (stderr %q)", tc.args, code, out, tc.want, errs)
		}
	}
}

// TestRun_bailScript: a script run stops at its first error with or
// without -bail; a --mode that contradicts a binary -o is refused.
func TestRun_bailScript(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, args := range [][]string{{"-bail", ref("sample.tet")}, {ref("sample.tet")}} {
		code, out, errs := runCLI(t, "SELECT 1 AS a;\nSELECT nope;\nSELECT 2 AS b;\n", args...)
		if code != 1 || out != "a\n1\n" || strings.Count(errs, "Error: ") != 1 || !strings.Contains(errs, "stdin:2: no such column: nope") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	dir := t.TempDir()
	code, _, errs := runCLI(t, "", "--csv", "-o", filepath.Join(dir, "x.parquet"), ref("sample.tet"), "SELECT 1")
	if code != 2 || !strings.Contains(errs, "--mode csv does not write") {
		t.Errorf("--csv -o x.parquet: exit %d, stderr %q", code, errs)
	}
}

// TestRun_outputExtensionAfterInit: a .mode of the init file is the
// terminal's; -o's extension still picks the file's format.
func TestRun_outputExtensionAfterInit(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.WriteFile(filepath.Join(home, ".tetsqlrc"), []byte(".mode box\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", filepath.Join(dir, "a.json")}, `[{"x":1}]` + "\n"},
	} {
		code, _, errs := runCLI(t, "", append(tc.args, ref("sample.tet"), "SELECT 1 AS x")...)
		b, err := os.ReadFile(tc.args[len(tc.args)-1])
		if code != 0 || err != nil || string(b) != tc.want {
			t.Errorf("%q: exit %d, file %q (%v), want %q; stderr %q", tc.args, code, b, err, tc.want, errs)
		}
	}
}
