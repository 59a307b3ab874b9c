package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMonthlyScript_reproducesTestdata runs scripts/make_monthly.sh into a
// temporary directory and checks that it writes the committed
// testdata/era5_monthly byte for byte, as the script promises.
func TestMonthlyScript_reproducesTestdata(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tetgen and writes twelve files")
	}
	for _, tool := range []string{"bash", "go", "seq", "paste"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
	root := filepath.Join("..", "..")
	out := t.TempDir()
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "make_monthly.sh"), out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make_monthly.sh: %v\n%s", err, b)
	}
	committed := filepath.Join(root, "testdata", "era5_monthly")
	var n int
	err := filepath.WalkDir(committed, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(committed, path)
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Errorf("%s: committed but not written by the script: %v", rel, err)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the script writes %d bytes that differ from the committed %d (rerun scripts/make_monthly.sh and check the diff)",
				rel, len(got), len(want))
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 12 {
		t.Errorf("%d committed files checked, want 12 (one per month)", n)
	}
}
