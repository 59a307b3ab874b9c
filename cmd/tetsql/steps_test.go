package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRun_stepOrder: -c and -f run in command-line order, as sqlite3
// runs its options, and the SQL argument after them.
func TestRun_stepOrder(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no ~/.tetsqlrc
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	dir := t.TempDir()
	f1, f2 := filepath.Join(dir, "f1.sql"), filepath.Join(dir, "f2.sql")
	for path, text := range map[string]string{f1: "SELECT 'f1' AS s;\n", f2: "SELECT 'f2' AS s;\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-f", f1, "-c", "SELECT 'c1' AS s", "-f", f2, "-c", "SELECT 'c2' AS s", demo}, "f1\nc1\nf2\nc2\n"},
		{[]string{"-c", "SELECT 'c1' AS s", "--file=" + f2, "-s", "SELECT 'c2' AS s", "--file", f1, demo, "SELECT 'q' AS s"}, "c1\nf2\nc2\nf1\nq\n"},
		{[]string{"-f", "-", "-c", "SELECT 'c1' AS s", demo}, "in\nc1\n"},
	}
	for _, tc := range tests {
		code, out, errs := runCLI(t, "SELECT 'in' AS s;\n", append([]string{"-noheader"}, tc.args...)...)
		if code != 0 || out != tc.want {
			t.Errorf("%q: exit %d, stdout %q, want %q (stderr %q)", tc.args, code, out, tc.want, errs)
		}
	}
}
