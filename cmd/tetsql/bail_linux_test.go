package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary_bail: the interactive shell carries on after an error and
// exits 0; with -bail or .bail on it ends at the first error, exit 1,
// the error printed once.
func TestBinary_bail(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyFile(t, ref("sample.tet"), filepath.Join(dir, "s.tet"))
	tests := []struct {
		name  string
		args  []string
		lines []string
		code  int
		out   string
	}{
		{"no bail", []string{"--no-init", "s.tet"}, []string{"SELECT 1 AS a;", "SELECT nope;", "SELECT 2 AS b;"}, 0, "a\n1\nb\n2\n"},
		{"-bail", []string{"--no-init", "-bail", "s.tet"}, []string{"SELECT 1 AS a;", "SELECT nope;", "SELECT 2 AS b;"}, 1, "a\n1\n"},
		{".bail on", []string{"--no-init", "s.tet"}, []string{".bail on", "SELECT 1 AS a;", ".nosuch", "SELECT 2 AS b;"}, 1, "a\n1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runInteractive(t, dir, tt.lines, tt.args...)
			if code != tt.code || out != tt.out || strings.Count(errs, "Error: ") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, one error", code, out, errs, tt.code, tt.out)
			}
		})
	}
}
