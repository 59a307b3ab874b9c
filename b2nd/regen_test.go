package b2nd

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

// These tests write new files with python-blosc2 and hold Format to the
// values python-blosc2 reads back from them: the committed fixtures with
// another seed (make.py) and random extra cases (make_extra.py). They skip
// when python3 cannot import blosc2 and numpy.

// pythonTimeout bounds each generator run.
const pythonTimeout = 3 * time.Minute

// needPython returns the python3 to run, or skips the test naming what is
// missing.
func needPython(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python-blosc2 not installed: no python3 on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, py, "-c", "import blosc2, numpy")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Skipf("python-blosc2 not installed: %s", lastLine(stderr.String(), err))
	}
	return py
}

// lastLine is the last non-empty line of a Python traceback ("No module
// named 'blosc2'"), or err when there is none.
func lastLine(s string, err error) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return err.Error()
}

// runGenerator runs a generator script of testdata with --out dir and
// --seed seed, failing the test with its stderr when it fails.
func runGenerator(t *testing.T, py, script, dir, seed string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), pythonTimeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, py, "testdata/"+script, "--out", dir, "--seed", seed)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("%s timed out after %v; stderr:\n%s", script, pythonTimeout, stderr.String())
	}
	if err != nil {
		t.Fatalf("%s: %v; stderr:\n%s", script, err, stderr.String())
	}
	t.Logf("%s --seed %s: %v", script, seed, time.Since(start).Round(time.Millisecond))
}

// TestRegeneratedFixtures regenerates the fixture set with another seed
// (B2ND_REGEN_SEED, 7 by default) and checks every file against the
// expected.json written with it.
func TestRegeneratedFixtures(t *testing.T) {
	py := needPython(t)
	dir := t.TempDir()
	runGenerator(t, py, "make.py", dir, seedFromEnv("B2ND_REGEN_SEED", "7"))
	checkGenerated(t, dir, func(expectedFile) bool { return true })
}

// TestExtraCases checks the random extra cases of make_extra.py: larger
// arrays, every codec under several pipelines, sparse frames, odd dtypes,
// a partial last chunk on every axis. B2ND_EXTRA_SEED draws other cases
// (for a soak: for s in $(seq 100); do B2ND_EXTRA_SEED=$s go test ...).
func TestExtraCases(t *testing.T) {
	py := needPython(t)
	dir := t.TempDir()
	runGenerator(t, py, "make_extra.py", dir, seedFromEnv("B2ND_EXTRA_SEED", "11"))
	// The conformance suite reads every chunk several times over, most of
	// the time under -race: the few-MB files get the value checks only.
	checkGenerated(t, dir, func(fx expectedFile) bool { return fx.Group != "big" })
}

// seedFromEnv is the environment variable name when set, else def.
func seedFromEnv(name, def string) string {
	if s := os.Getenv(name); s != "" {
		return s
	}
	return def
}

// checkGenerated runs the expected-value checks on what a generator wrote
// to dir and fails when it checked nothing.
func checkGenerated(t *testing.T, dir string, conform func(expectedFile) bool) {
	t.Helper()
	files := loadExpected(t, dir)
	n := checkExpectedDir(t, dir, files, conform)
	// The frame parser against what make.py's own frame scan recorded.
	t.Run("frames", func(t *testing.T) {
		for _, fx := range files {
			if fx.ExpectError != nil {
				continue
			}
			t.Run(strings.TrimSuffix(fx.File, ".b2nd"), func(t *testing.T) {
				p := filepath.Join(dir, fx.File)
				var f *Frame
				var err error
				if st, serr := os.Stat(p); serr == nil && st.IsDir() {
					f, err = ParseDir(p)
				} else if data, rerr := os.ReadFile(p); rerr != nil {
					t.Fatal(rerr)
				} else {
					f, err = Parse(data)
				}
				if err != nil {
					t.Fatal(err)
				}
				checkFixture(t, fx.fixture, f)
			})
		}
	})
	t.Logf("%d of %d generated files checked value by value", n, len(files))
	if n == 0 {
		t.Fatalf("no generated file was checked (%d in expected.json)", len(files))
	}
}
