package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRun_exitStatus: .exit N (and .quit N) end the process with status
// N wherever they run, as sqlite3's .exit N does: the SQL argument, -c,
// -cmd, stdin, -f, a script read with .read and the init file. The
// commands after it do not run.
func TestRun_exitStatus(t *testing.T) {
	t.Parallel()
	sample := ref("sample.tet")
	script := filepath.Join(t.TempDir(), "q.sql")
	if err := os.WriteFile(script, []byte("SELECT 1 AS one;\n.exit 5\nSELECT 2 AS two;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout string
	}{
		{"-c", "", []string{"--csv", sample, "-c", ".exit 3"}, 3, ""},
		{"sql argument", "", []string{"--csv", sample, ".quit 7"}, 7, ""},
		{"stdin", "SELECT 1 AS one;\n.exit 4\nSELECT 2 AS two;\n", []string{"--csv", sample}, 4, "one\n1\n"},
		{"-f", "", []string{"--csv", "-f", script, sample}, 5, "one\n1\n"},
		{".read", "", []string{"--csv", sample, "-c", ".read " + script, "-c", "SELECT 3 AS three"}, 5, "one\n1\n"},
		{"-init", "", []string{"--csv", "-init", script, sample, "SELECT 3 AS three"}, 5, "one\n1\n"},
		{"-cmd", "", []string{"--csv", "-cmd", ".exit 6", sample, "SELECT 3 AS three"}, 6, ""},
		{".exit 0", "", []string{"--csv", sample, "-c", ".exit 0"}, 0, ""},
		{"plain .exit", "SELECT 1 AS one;\n.exit\nSELECT 2 AS two;\n", []string{"--csv", sample}, 0, "one\n1\n"},
		{"not a status", ".exit abc\n", []string{"--csv", sample}, exitError, ""},
		{"out of range", ".exit 256\n", []string{"--csv", sample}, exitError, ""},
	}
	for _, tt := range tests {
		code, out, errs := runCLI(t, tt.stdin, tt.args...)
		if code != tt.code || out != tt.stdout {
			t.Errorf("%s: exit %d, stdout %q, want %d, %q (stderr %q)", tt.name, code, out, tt.code, tt.stdout, errs)
		}
	}
}
