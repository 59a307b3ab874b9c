package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary_openFailureKeepsSession: in the shell, a failed .open
// (alias taken, missing file, not a .tet file) leaves every attached
// schema in place; the old one still answers queries afterwards.
func TestBinary_openFailureKeepsSession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyFile(t, filepath.Join("..", "..", "testdata", "demo.tet"), filepath.Join(dir, "demo.tet"))
	copyFile(t, ref("sample.tet"), filepath.Join(dir, "other.tet"))
	os.WriteFile(filepath.Join(dir, "notatet.txt"), []byte("hello\n"), 0o644)
	const count = "SELECT count(*) AS n, sum(value) AS s FROM demo.temperature"
	code, want, errs := runBin(t, dir, "", "demo=demo.tet", count)
	if code != 0 || strings.Count(want, "\n") != 2 {
		t.Fatalf("reference: exit %d %q %q", code, want, errs)
	}
	code, out, errs := runInteractive(t, dir, []string{
		".open other.tet AS demo", // a valid file, the alias taken
		".open other.tet AS DEMO",
		".open missing.tet AS demo",
		".open notatet.txt AS demo",
		".open notatet.txt AS fresh",
		count + ";",
		"SELECT group_concat(name) AS schemas FROM pragma_database_list;",
	}, "demo=demo.tet")
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	if !strings.HasPrefix(out, want) {
		t.Errorf("after the failed .open: stdout %q, want it to start with %q; stderr %q", out, want, errs)
	}
	if !strings.HasSuffix(out, "schemas\n\"main,demo\"\n") {
		t.Errorf("schemas afterwards: %q", out)
	}
	for _, msg := range []string{`Error: alias "demo" is already in use`, `Error: alias "DEMO" is already in use`,
		"Error: open missing.tet: no such file or directory", "Error: open notatet.txt: not a file of a known format"} {
		if !strings.Contains(errs, msg) {
			t.Errorf("stderr lacks %q:\n%s", msg, errs)
		}
	}
	if n := strings.Count(errs, "Error:"); n != 5 {
		t.Errorf("%d errors, want 5:\n%s", n, errs)
	}
}

// TestBinary_interactiveOutput: in the shell, .output (and -o) keep the
// complete results of the statements that succeeded when the shell
// ends; a statement that fails after writing rows leaves none of them.
func TestBinary_interactiveOutput(t *testing.T) {
	t.Parallel()
	demo, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	const midway = "SELECT time, CASE WHEN value > 30 THEN abs(-9223372036854775807 - 1) ELSE value END AS v FROM temperature"
	dir := t.TempDir()
	var want string
	for _, q := range []string{"SELECT 1 AS a", "SELECT station, max(value) AS mx FROM temperature GROUP BY station"} {
		code, out, errs := runBin(t, dir, "", demo, q)
		if code != 0 {
			t.Fatalf("%s: %d %s", q, code, errs)
		}
		want += out
	}
	lines := []string{"SELECT 1 AS a;", midway + ";", "SELECT nope;", "SELECT station, max(value) AS mx FROM temperature GROUP BY station;"}
	for _, tt := range []struct {
		name  string
		args  []string
		lines []string
	}{
		{".output", []string{demo}, append([]string{".output out.csv"}, lines...)},
		{"-o", []string{"-o", "out.csv", demo}, lines},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			code, _, errs := runInteractive(t, dir, tt.lines, tt.args...)
			if code != 0 || strings.Count(errs, "Error:") != 2 {
				t.Errorf("exit %d; stderr %q", code, errs)
			}
			sameContent(t, filepath.Join(dir, "out.csv"), []byte(want), "output")
			noTemps(t, dir)
		})
	}
	// Nothing succeeded: the old file stays, and the shell says so.
	out := filepath.Join(dir, "old.csv")
	os.WriteFile(out, []byte("old\n"), 0o644)
	_, _, errs := runInteractive(t, dir, []string{".output old.csv", midway + ";"}, demo)
	sameContent(t, out, []byte("old\n"), "output")
	if !strings.Contains(errs, "note: old.csv left unchanged: no statement succeeded since .output") {
		t.Errorf("stderr %q", errs)
	}
	noTemps(t, dir)
}
