package mapfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/mapfile"
)

// TestCheckUnchanged covers what counts as a change of the file a
// mapping was taken from, one fresh file per case.
func TestCheckUnchanged(t *testing.T) {
	for _, tc := range []struct {
		name    string
		change  func(t *testing.T, path string) // nil: leave the file alone
		changed bool
	}{
		{"untouched", nil, false},
		{"reopened elsewhere and closed", func(t *testing.T, path string) {
			g, err := mapfile.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			g.Close()
		}, false},
		{"renamed over", func(t *testing.T, path string) {
			next := path + ".next"
			write(t, next, pattern(5000)) // same size, another inode
			if err := os.Rename(next, path); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"rewritten in place, shorter", func(t *testing.T, path string) {
			write(t, path, pattern(4000)) // O_TRUNC: same inode
		}, true},
		{"rewritten in place, longer", func(t *testing.T, path string) {
			write(t, path, pattern(9000))
		}, true},
		{"rewritten in place, same size, later mtime", func(t *testing.T, path string) {
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			write(t, path, make([]byte, 5000))
			later := st.ModTime().Add(time.Second)
			if err := os.Chtimes(path, later, later); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"deleted", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, pattern(5000))
			f := open(t, path)
			if err := f.CheckUnchanged(); err != nil {
				t.Fatalf("before the change: %v", err)
			}
			if tc.change != nil {
				tc.change(t, path)
			}
			err := f.CheckUnchanged()
			if got := errors.Is(err, array.ErrChanged); got != tc.changed {
				t.Fatalf("CheckUnchanged: %v; want changed %v", err, tc.changed)
			}
			if err != nil && !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name %s", err, path)
			}
		})
	}
}

// TestCheckUnchanged_relativePath: a file opened by a relative path is
// still itself after the process changes directory, and a file of the
// same name in the new directory is not mistaken for it.
func TestCheckUnchanged_relativePath(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "f.bin"), pattern(100))
	write(t, filepath.Join(elsewhere, "f.bin"), pattern(200))
	t.Chdir(dir)
	f := open(t, "f.bin")
	t.Chdir(elsewhere)
	if err := f.CheckUnchanged(); err != nil {
		t.Errorf("same file, other working directory: %v", err)
	}
	if err := os.Remove(filepath.Join(dir, "f.bin")); err != nil {
		t.Fatal(err)
	}
	if err := f.CheckUnchanged(); !errors.Is(err, array.ErrChanged) {
		t.Errorf("deleted, while a same-named file exists in the working directory: %v", err)
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
