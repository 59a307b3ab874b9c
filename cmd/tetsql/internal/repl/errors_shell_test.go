package repl_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestErrorSuggestionsRecordNoScan: the catalog look-ups behind a
// suggestion leave no scan behind (neither in --stats output nor in
// tetsql.Scans) and the connection works on as before.
func TestErrorSuggestionsRecordNoScan(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{Stats: true}, ref("sample.tet"))
	ctx := context.Background()
	err := e.sh.Exec(ctx, "SELECT valeu FROM temperature WHERE d0 = 0")
	if err == nil || repl.Message(err) != "no such column: valeu — did you mean value?\n  SELECT valeu FROM temperature WHERE d0 = 0\n         ^" {
		t.Fatalf("error %q", repl.Message(err))
	}
	if s := e.stderr.String(); s != "" {
		t.Errorf("stderr after the failed statement: %q", s)
	}
	if scans, err := tetsql.Scans(ctx, e.conn); err != nil || len(scans) != 0 {
		t.Errorf("scans after the failed statement: %v, %v", scans, err)
	}
	e.exec(t, "SELECT value FROM temperature WHERE d0 = 0")
	if n := strings.Count(e.stderr.String(), "stats: "); n != 1 {
		t.Errorf("%d stats lines for one scan:\n%s", n, e.stderr)
	}
	if got := e.stdout.String(); got != "1.0\n2.0\n3.0\n" {
		t.Errorf("stdout %q", got)
	}
}
