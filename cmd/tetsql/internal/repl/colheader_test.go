package repl_test

import (
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestColumnHeaders: .headers off (or -noheader, Options.Header false)
// leaves out column mode's header and dashes, as in sqlite3, whichever
// of .headers and .mode comes first; box keeps its header.
func TestColumnHeaders(t *testing.T) {
	t.Parallel()
	const q = "SELECT 'a' AS x, 1 AS yy"
	for _, tt := range []struct {
		header bool
		cmds   []string
		want   string
	}{
		{true, []string{".mode column", q}, "x  yy\n-  --\na  1\n"},
		{true, []string{".headers off", ".mode column", q}, "a  1\n"},
		{true, []string{".mode column", ".headers off", q}, "a  1\n"},
		{false, []string{".mode column", q}, "a  1\n"},
		{false, []string{".mode column", ".headers on", q}, "x  yy\n-  --\na  1\n"},
		{false, []string{".mode table", q}, "+---+----+\n| x | yy |\n+---+----+\n| a |  1 |\n+---+----+\n"},
	} {
		e := newEnv(t, repl.Options{Header: tt.header})
		e.exec(t, tt.cmds...)
		if got := e.stdout.String(); got != tt.want {
			t.Errorf("header %v, %q: got\n%s\nwant\n%s", tt.header, tt.cmds, got, tt.want)
		}
	}
}
