package repl_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestOutputIsInput: every way of naming an attached file as the output
// fails with ErrOutputIsInput, and the current output stays in use.
func TestOutputIsInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.tet")
	b, err := os.ReadFile(ref("sample.tet"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(in, b, 0o644)
	os.Symlink("in.tet", filepath.Join(dir, "link"))
	e := newEnv(t, repl.Options{Header: true}, in)
	out := filepath.Join(dir, "out.csv")
	if err := e.sh.SetOutput(out); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{in, filepath.Join(dir, "link"), filepath.Join(dir, ".", "..", filepath.Base(dir), "in.tet")} {
		if err := e.sh.SetOutput(p); !errors.Is(err, repl.ErrOutputIsInput) {
			t.Errorf("SetOutput(%s): %v", p, err)
		}
		if err := e.sh.Exec(context.Background(), ".once "+p); !errors.Is(err, repl.ErrOutputIsInput) {
			t.Errorf(".once %s: %v", p, err)
		}
	}
	e.exec(t, "SELECT count(*) AS n FROM temperature")
	if err := e.sh.CloseAfter(nil); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, out); got != "n\n6\n" {
		t.Errorf("output %q", got)
	}
	if got, _ := os.ReadFile(in); string(got) != string(b) {
		t.Error("input changed")
	}
}
