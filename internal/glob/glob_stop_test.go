package glob

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestExpandStop: the walk asks stop before each directory and ends with
// its error; a nil stop walks everything.
func TestExpandStop(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a/b", "a/c", "d"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, d, "x.tet"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stopped := errors.New("stopped")
	asked := 0
	_, err := ExpandStop(dir+"/**/x.tet", 100, func() error {
		if asked++; asked == 3 {
			return stopped
		}
		return nil
	})
	if !errors.Is(err, stopped) || asked != 3 {
		t.Fatalf("err %v after %d questions, want stopped at the third", err, asked)
	}
	ms, err := ExpandStop(dir+"/**/x.tet", 100, nil)
	if err != nil || len(ms) != 3 {
		t.Fatalf("%d matches, %v; want 3", len(ms), err)
	}
}
