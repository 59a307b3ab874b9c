//go:build unix

package array_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tetsql/tetsql/array"
)

func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	fh, st, err := array.OpenRegular(file)
	if err != nil || st.Size() != 3 {
		t.Fatalf("regular file: %v, %v", st, err)
	}
	fh.Close()
	if _, _, err := array.OpenRegular(dir); !errors.Is(err, array.ErrNotRegular) {
		t.Errorf("directory: %v, want ErrNotRegular", err)
	}
	if _, _, err := array.OpenRegular(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
	fifo := filepath.Join(dir, "p")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// A FIFO with no writer must be refused at once, never waited on.
	if _, _, err := array.OpenRegular(fifo); !errors.Is(err, array.ErrNotRegular) {
		t.Errorf("FIFO: %v, want ErrNotRegular", err)
	}
}
