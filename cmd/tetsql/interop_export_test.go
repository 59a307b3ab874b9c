package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// needPython skips t unless python3 can import every module of mods.
func needPython(t *testing.T, what string, mods ...string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("%s: no python3 on PATH", what)
	}
	for _, m := range mods {
		if err := exec.Command("python3", "-c", "import "+m).Run(); err != nil {
			t.Skipf("%s: python3 cannot import %s (pip install %s)", what, m, strings.Join(mods, " "))
		}
	}
}

// hasArrowMode reports whether the built binary writes an Arrow IPC stream
// with --mode arrow (its first bytes are a continuation marker).
func hasArrowMode(t *testing.T) bool {
	t.Helper()
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	out, err := exec.Command(tetsqlBin, "--mode", "arrow", demo, "SELECT 1 AS x").Output()
	return err == nil && bytes.HasPrefix(out, []byte{0xff, 0xff, 0xff, 0xff})
}

// TestInteropExport runs scripts/interop_export.py against the built
// binary: DuckDB, pyarrow and polars read tetsql's Parquet files,
// partitioned datasets and Arrow streams with the row counts, types,
// counts, sums and extremes tetsql answers itself. Skipped when python3
// or one of the three packages is missing.
func TestInteropExport(t *testing.T) {
	needPython(t, "export interop check", "pyarrow", "duckdb", "polars")
	for _, format := range []string{"parquet", "arrow"} {
		t.Run(format, func(t *testing.T) {
			if format == "arrow" && !hasArrowMode(t) {
				t.Skip("Arrow interop check: this tetsql has no --mode arrow (Arrow IPC output) yet")
			}
			script := filepath.Join("..", "..", "scripts", "interop_export.py")
			// Read through the os package so that editing the script
			// invalidates go test's cache of this test.
			if _, err := os.ReadFile(script); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("python3", script, "--tetsql", tetsqlBin, "--formats", format)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("interop_export.py --formats %s: %v\n%s", format, err, out)
			}
			if !bytes.Contains(out, []byte("; 0 mismatches")) {
				t.Fatalf("interop_export.py printed no clean summary:\n%s", out)
			}
			t.Logf("%s", lastLine(out))
		})
	}
}

// lastLine is the last non-empty line of out.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}
