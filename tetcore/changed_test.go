package tetcore_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestCheckUnchanged covers what counts as a change: nothing for the same
// file (even after the process changes directory, for a relative path),
// a rename over it, and a deletion.
func TestCheckUnchanged(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.U8, Shape: []int64{8}, ChunkShape: []int64{8}}
	writeFile(t, filepath.Join(dir, "f.tet"), []genDataset{{spec, make([]byte, 8)}}, nil)
	t.Chdir(dir)
	f, err := tetcore.Open("f.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Chdir(elsewhere)
	if err := f.CheckUnchanged(); err != nil {
		t.Errorf("same file, other working directory: %v", err)
	}
	writeFile(t, filepath.Join(elsewhere, "g.tet"), []genDataset{{spec, make([]byte, 8)}}, nil)
	if err := os.Rename(filepath.Join(elsewhere, "g.tet"), filepath.Join(dir, "f.tet")); err != nil {
		t.Fatal(err)
	}
	if err := f.CheckUnchanged(); !errors.Is(err, tetcore.ErrChanged) {
		t.Errorf("renamed over: %v", err)
	}
	os.Remove(filepath.Join(dir, "f.tet"))
	if err := f.Acquire(); !errors.Is(err, tetcore.ErrChanged) {
		t.Errorf("deleted: %v", err)
	}
}
