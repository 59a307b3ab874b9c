package repl_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestPathMessages: an error about a file the user named names it once,
// with the system's reason, and never a temporary file's name.
func TestPathMessages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "nodir", "x.csv")
	e := newEnv(t, repl.Options{}, ref("sample.tet"))
	for _, tt := range []struct{ cmd, want string }{
		{".read " + dir, dir + ": is a directory"},
		{".output " + missing, "output " + missing + ": no such file or directory"},
		{".once " + missing, "output " + missing + ": no such file or directory"},
		{".output /proc/nodir/x.csv", "output /proc/nodir/x.csv: no such file or directory"},
	} {
		err := e.sh.Exec(context.Background(), tt.cmd)
		if err == nil || repl.Message(err) != tt.want {
			t.Errorf("%s: %v, want %q", tt.cmd, err, tt.want)
		}
	}
}
