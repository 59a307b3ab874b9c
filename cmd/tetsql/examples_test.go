package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite examples/queries/*.csv from the current output")

// inputsOf returns the CLI file arguments of an example query: those its
// first line names ("-- files: PATH_OR_GLOB ...", relative to the
// repository root), else the demo file.
func inputsOf(t *testing.T, sqlFile string) []string {
	t.Helper()
	b, err := os.ReadFile(sqlFile)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	rest, ok := strings.CutPrefix(strings.TrimSpace(first), "-- files:")
	if !ok {
		return []string{filepath.Join("..", "..", "testdata", "demo.tet")}
	}
	var out []string
	for _, f := range strings.Fields(rest) {
		out = append(out, filepath.Join("..", "..", filepath.FromSlash(f)))
	}
	if len(out) == 0 {
		t.Fatalf("%s: \"-- files:\" names no file", sqlFile)
	}
	return out
}

// TestExampleQueries runs every examples/queries/*.sql in CSV mode on the
// files its first line names (default: the demo file) and compares with
// the .csv file next to it.
func TestExampleQueries(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "queries", "*.sql"))
	if len(files) < 10 {
		t.Fatalf("found %d example queries, want at least 10", len(files))
	}
	for _, sqlFile := range files {
		name := strings.TrimSuffix(filepath.Base(sqlFile), ".sql")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"--csv"}, inputsOf(t, sqlFile)...), "-f", sqlFile)
			code, out, errOut := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			want := strings.TrimSuffix(sqlFile, ".sql") + ".csv"
			if *update {
				if err := os.WriteFile(want, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			exp, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/tetsql -run TestExampleQueries -update)", err)
			}
			if out != string(exp) {
				t.Errorf("%s: output differs from %s\ngot:\n%s\nwant:\n%s", sqlFile, want, out, exp)
			}
			if strings.Count(out, "\n") < 2 {
				t.Errorf("%s returned no rows", sqlFile)
			}
		})
	}
}
