package repl_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestSafe_dotCommands: with Options.Safe every dot command that names a
// path or reaches the shell is refused before it does anything, with
// "not allowed in safe mode: .NAME"; the others still work; without
// Safe the file commands work.
func TestSafe_dotCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(t.TempDir(), "s.sql")
	os.WriteFile(script, []byte("SELECT 5 AS five;\n"), 0o644)
	e := newEnv(t, repl.Options{Header: true, Safe: true}, ref("sample.tet"))
	for _, cmd := range []string{
		".open " + ref("multichunk_u8.tet"), ".open u=" + ref("multichunk_u8.tet") + " AS u",
		".output " + filepath.Join(dir, "o.csv"), ".output", ".once " + filepath.Join(dir, "o.csv"),
		".read " + script, ".READ " + script, ".shell touch " + filepath.Join(dir, "x"),
		".system ls", ".import a.csv t", ".save " + filepath.Join(dir, "s.db"), ".backup b.db",
		".restore b.db", ".load x.so", ".log " + filepath.Join(dir, "l"), ".cd /", ".excel",
		".clone c.db", ".sh ls", ".trace t", ".archive", ".ar", ".recover",
	} {
		name, _, _ := strings.Cut(strings.ToLower(cmd), " ")
		err := e.sh.Exec(context.Background(), cmd)
		if !errors.Is(err, tetsql.ErrNotAllowed) || err.Error() != "not allowed in safe mode: "+name {
			t.Errorf("%s: %v", cmd, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the refused commands wrote %v", ents)
	}
	e.exec(t, ".mode csv", ".tables", ".datasets", ".verify", ".info", ".help", "SELECT 3 AS three")
	if out := e.stdout.String(); strings.Contains(out, "five") || !strings.Contains(out, "three\n3\n") || !strings.Contains(out, "sample.temperature") {
		t.Errorf("stdout %q", out)
	}

	plain := newEnv(t, repl.Options{Header: true}, ref("sample.tet"))
	plain.exec(t, ".read "+script, ".output "+filepath.Join(dir, "o.csv"), "SELECT 1 AS one", ".output")
	if out := plain.stdout.String(); out != "five\n5\n" {
		t.Errorf("without Safe, .read printed %q", out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "o.csv")); err != nil || string(b) != "one\n1\n" {
		t.Errorf("without Safe, .output wrote %q, %v", b, err)
	}
}
