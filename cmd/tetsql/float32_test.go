package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRun_float32Values: in every mode, a value from a FLOAT32 column
// (an f32 cells value, or a native column so declared) prints as the
// shortest float32 that reads back as it (0.7, -8.3), while a native
// FLOAT column, a double in SQLite, prints every digit of the double it
// holds, even one a float32 holds exactly.
func TestRun_float32Values(t *testing.T) {
	t.Parallel()
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	q := "CREATE TEMP TABLE n(x FLOAT, y FLOAT32); INSERT INTO n VALUES (0.699999988079071, 0.699999988079071); " +
		"SELECT x, y, (SELECT value FROM temperature WHERE value BETWEEN -8.31 AND -8.29 LIMIT 1) AS v FROM n"
	tests := []struct {
		mode, want string
	}{
		{"csv", "x,y,v\n0.699999988079071,0.7,-8.3\n"},
		{"tsv", "x\ty\tv\n0.699999988079071\t0.7\t-8.3\n"},
		{"list", "x|y|v\n0.699999988079071|0.7|-8.3\n"},
		{"json", `[{"x":0.699999988079071,"y":0.7,"v":-8.3}]` + "\n"},
		{"jsonl", `{"x":0.699999988079071,"y":0.7,"v":-8.3}` + "\n"},
		{"line", "    x = 0.699999988079071\n    y = 0.7\n    v = -8.3\n"},
		{"box", "│ 0.699999988079071 │ 0.7 │ -8.3 │"},
		{"table", "| 0.699999988079071 | 0.7 | -8.3 |"},
		{"markdown", "| 0.699999988079071 | 0.7 | -8.3 |"},
		{"column", "0.699999988079071  0.7  -8.3"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runCLI(t, "", "--mode", tt.mode, demo, q)
			ok := out == tt.want
			if strings.HasPrefix(tt.want, "|") || strings.HasPrefix(tt.want, "│") || tt.mode == "column" {
				ok = strings.Contains(out, tt.want+"\n")
			}
			if code != 0 || !ok {
				t.Errorf("exit %d, stdout %q, want %q; stderr %q", code, out, tt.want, errs)
			}
		})
	}
}
