package repl_test

import (
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestMaxRows: a grid on a terminal shows .maxrows rows (40 by default)
// and says how many it held back; .maxrows 0, files and other modes get
// every row.
func TestMaxRows(t *testing.T) {
	t.Parallel()
	const q = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50) SELECT x FROM c"
	tests := []struct {
		name string
		term bool
		cmds []string
		rows int    // data rows printed
		note string // the held-back line, "" for none
	}{
		{name: "box on a terminal", term: true, cmds: []string{q}, rows: 40, note: "50 rows, 40 shown (.maxrows 0 shows all)"},
		{name: "column on a terminal", term: true, cmds: []string{".mode column", ".maxrows 10", q}, rows: 10, note: "50 rows, 10 shown"},
		{name: "maxrows 0", term: true, cmds: []string{".maxrows 0", q}, rows: 50},
		{name: "fewer rows than the limit", term: true, cmds: []string{".maxrows 50", q}, rows: 50},
		{name: "csv on a terminal", term: true, cmds: []string{".mode csv", q}, rows: 50},
		{name: "not a terminal", cmds: []string{".mode box", q}, rows: 50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, repl.Options{Header: true, StdoutTerminal: tc.term}, ref("sample.tet"))
			e.exec(t, tc.cmds...)
			out := e.stdout.String()
			n := 0
			for _, line := range strings.Split(out, "\n") {
				f := strings.Trim(line, "│| ")
				if f != "" && strings.Trim(f, "0123456789") == "" {
					n++
				}
			}
			if n != tc.rows {
				t.Errorf("%d data rows, want %d:\n%s", n, tc.rows, out)
			}
			if has := strings.Contains(out, " shown"); has != (tc.note != "") || !strings.Contains(out, tc.note) {
				t.Errorf("held-back line: want %q in\n%s", tc.note, out)
			}
		})
	}
}
