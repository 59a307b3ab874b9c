package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite examples/queries/*.csv from the current output")

// TestExampleQueries runs every examples/queries/*.sql on the demo file
// in CSV mode and compares with the .csv file next to it.
func TestExampleQueries(t *testing.T) {
	t.Parallel()
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "queries", "*.sql"))
	if len(files) < 10 {
		t.Fatalf("found %d example queries, want at least 10", len(files))
	}
	for _, sqlFile := range files {
		name := strings.TrimSuffix(filepath.Base(sqlFile), ".sql")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t, "", "--csv", demo, "-f", sqlFile)
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
