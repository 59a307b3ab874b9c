package repl_test

import (
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestPrintEscapes: .print resolves backslash escapes in bare and "…"
// words, as sqlite3 3.40 does; '…' keeps them; .nullvalue keeps \N.
func TestPrintEscapes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{})
	e.exec(t, `.print a\tb`, `.print "c\td"`, `.print 'e\tf'`, `.print x\\y \101 "q\"r"`, `.nullvalue \N`, `.mode csv`, `SELECT NULL`)
	if got, want := e.stdout.String(), "a\tb\nc\td\ne\\tf\nx\\y A q\"r\n\\N\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
