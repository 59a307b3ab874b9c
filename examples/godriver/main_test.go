package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgram builds the example and runs it against the reference file.
func TestProgram(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	bin := filepath.Join(t.TempDir(), "godriver")
	if out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sample := filepath.Join("..", "..", "testdata", "reference", "sample.tet")
	for _, tc := range []struct {
		args       []string
		stdout     string
		stderr     string // substring
		exitStatus int
	}{
		{args: []string{sample}, stdout: "name\tdtype\tshape\ntemperature\tf32\t[2,3]\n"},
		{args: []string{sample, "SELECT d0, d1, value FROM temperature WHERE d1 >= 1 ORDER BY rowid"},
			stdout: "d0\td1\tvalue\n0\t1\t2\n0\t2\t3\n1\t1\t5\n1\t2\t6\n"},
		{args: []string{"s=" + sample + ";u=" + filepath.Join("..", "..", "testdata", "reference", "multichunk_u8.tet"),
			"SELECT s.value, u.value, NULL FROM s.temperature s JOIN u.a u ON u.rowid = s.rowid WHERE s.rowid = 4"},
			stdout: "value\tvalue\tNULL\n5\t5\tNULL\n"},
		{args: []string{"missing.tet"}, stderr: "godriver: tetsql: open missing.tet", exitStatus: 1},
		{args: []string{sample, "SELECT nope FROM temperature"}, stderr: "no such column: nope", exitStatus: 1},
		{args: nil, stderr: "usage: godriver FILE.tet [SQL]", exitStatus: 2},
	} {
		cmd := exec.Command(bin, tc.args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		status := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != tc.exitStatus || !strings.Contains(stderr.String(), tc.stderr) || (tc.exitStatus == 0 && stdout.String() != tc.stdout) {
			t.Errorf("godriver %q: exit %d, stdout\n%s\nstderr\n%s\nwant exit %d, stdout\n%s\nstderr containing %q",
				tc.args, status, stdout.String(), stderr.String(), tc.exitStatus, tc.stdout, tc.stderr)
		}
	}
}

// TestDocQuotesProgram checks that docs/GO.md shows this program as it
// is: the ```go block after the marker line must equal main.go.
func TestDocQuotesProgram(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "GO.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- quoted from examples/godriver/main.go; a test checks it -->\n```go\n"
	_, rest, ok := strings.Cut(string(doc), marker)
	if !ok {
		t.Fatalf("docs/GO.md has no %q", marker)
	}
	block, _, ok := strings.Cut(rest, "```\n")
	if !ok {
		t.Fatal("docs/GO.md: unterminated code block")
	}
	if block != string(src) {
		t.Errorf("docs/GO.md's copy of examples/godriver/main.go is out of date:\n%s", block)
	}
}
