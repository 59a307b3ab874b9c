package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExample checks that the README quotes this program verbatim
// and that it prints the expected rows when run from the repository root.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	block := "```go\n" + string(src) + "```\n"
	if !strings.Contains(string(readme), block) {
		t.Fatal("README.md does not quote examples/readme/main.go verbatim in a ```go block")
	}
	cmd := exec.Command("go", "run", "./examples/readme")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	want := "2024-01-01 -6.1\n2024-01-02 -3.2\n2024-01-03 -4.6\n"
	if string(out) != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}
