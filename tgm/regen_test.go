package tgm

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// These tests write new files with the reference Python package
// (tensogram 0.24.0, through testdata/make.py) and hold the reader to the
// values that package decodes from them. They skip when python3 cannot
// import tensogram and numpy.

// pythonTimeout bounds each generator run.
const pythonTimeout = 3 * time.Minute

// regenScript builds a fixture set with make.build and other parameters:
// argv is the output directory, then a JSON object of parameters.
const regenScript = `
import json, sys
sys.path.insert(0, sys.argv[1])
import make
out, params = sys.argv[2], json.loads(sys.argv[3])
for k in ("grid", "sp_grid"):
    if k in params:
        params[k] = tuple(params[k])
files, refuse = make.build(out, params)
with open(out + "/expected.json", "w") as f:
    json.dump({"files": files, "refuse": refuse}, f)
`

// needTensogram returns the python3 to run, or skips naming what is
// missing.
func needTensogram(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("tensogram (Python) not installed: no python3 on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, py, "-c", "import tensogram, numpy")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Skipf("tensogram (Python) not installed (pip install tensogram==0.24.0 numpy): %s", lastLine(stderr.String(), err))
	}
	return py
}

// lastLine is the last non-empty line of a Python traceback, or err.
func lastLine(s string, err error) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return err.Error()
}

// runPython runs python3 with args, failing the test with its stderr.
func runPython(t *testing.T, py string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), pythonTimeout)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, py, args...)
	cmd.Stderr = &stderr
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("python timed out after %v; stderr:\n%s", pythonTimeout, stderr.String())
	}
	if err != nil {
		t.Fatalf("python: %v; stderr:\n%s", err, stderr.String())
	}
}

// TestRegeneratedFixtures runs make.py as committed into a temporary
// directory: the reference package's current files must read as the
// committed ones do.
func TestRegeneratedFixtures(t *testing.T) {
	py := needTensogram(t)
	dir := t.TempDir()
	runPython(t, py, "testdata/make.py", dir)
	checkExpectedDir(t, dir)
}

// TestRegeneratedOtherParams makes the fixture kinds with another seed,
// other shapes and message counts (TGM_REGEN_SEED picks the seed).
func TestRegeneratedOtherParams(t *testing.T) {
	py := needTensogram(t)
	dir := t.TempDir()
	seed := os.Getenv("TGM_REGEN_SEED")
	if seed == "" {
		seed = "7"
	}
	params := `{"seed": ` + seed + `, "grid": [5, 9], "steps": 3, "many": 5, "sp_grid": [7, 13], "profile": 11}`
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	runPython(t, py, "-c", regenScript, testdata, dir, params)
	checkExpectedDir(t, dir)
}
