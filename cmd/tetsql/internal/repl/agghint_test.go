package repl_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// The hint after an aggregate that read 64 chunks of big.big row by row.
const bigHint = "hint: 64 chunks of big.big were read row by row; big.big_agg folds whole chunks: " +
	"SELECT count, sum, min, max, mean FROM big.big_agg WHERE … (big.big_agg('DIM') groups by a dim)\n"

// TestAggHint: the hint's exact text after an aggregate that read many
// chunks row by row, printed once per companion; none for an aggregate
// the driver routed onto _agg, a query without aggregates, a small scan,
// a failed statement, a script, or when stderr is not a terminal.
func TestAggHint(t *testing.T) {
	big := bigFile(t, 6400, 100) // 64 chunks
	type step struct {
		q    string
		hint bool
	}
	for _, tc := range []struct {
		name     string
		terminal bool
		script   bool
		steps    []step
	}{
		{"terminal", true, false, []step{
			{"SELECT count(*), avg(value) FROM big", false},               // routed onto big_agg
			{"SELECT i, value FROM big WHERE value > 1000", false},        // no aggregate
			{"SELECT count(DISTINCT value) FROM big", false},              // no companion column counts distinct values
			{"SELECT group_concat(value) FROM big", false},                // nor concatenates them
			{"SELECT sum(value) FROM big GROUP BY value % 3", false},      // nor groups by an expression
			{"SELECT (SELECT sum(value) FROM big WHERE i < 6300)", false}, // 63 chunks
			{"SELECT (SELECT sum(value) FROM big)", true},                 // 64 chunks, not routed
			{"SELECT (SELECT max(value) FROM big)", false},                // named already
		}},
		{"not a terminal", false, false, []step{{"SELECT (SELECT sum(value) FROM big)", false}}},
		{"script", true, true, []step{{"SELECT (SELECT sum(value) FROM big)", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, repl.Options{Mode: "csv", StderrTerminal: tc.terminal}, big)
			e.sh.SetLive(time.Hour, time.Hour, nil) // no progress line
			e.sh.SetHint(0, time.Hour)              // by chunks only
			for _, st := range tc.steps {
				before := len(e.stderr.String())
				var err error
				if tc.script {
					err = e.sh.RunScript(context.Background(), strings.NewReader(st.q+";\n"), "s.sql")
				} else {
					err = e.sh.Exec(context.Background(), st.q)
				}
				if err != nil {
					t.Fatalf("%s: %v", st.q, err)
				}
				got := e.stderr.String()[before:]
				want := ""
				if st.hint {
					want = bigHint
				}
				if got != want {
					t.Errorf("%s: stderr %q, want %q", st.q, got, want)
				}
			}
		})
	}
}

// TestAggHint_failed: a statement that fails gets no hint.
func TestAggHint_failed(t *testing.T) {
	big := bigFile(t, 6400, 100)
	e := newEnv(t, repl.Options{Mode: "csv", StderrTerminal: true}, big)
	e.sh.SetLive(time.Hour, time.Hour, nil)
	e.sh.SetHint(0, time.Hour)
	// Fails after reading every chunk: HAVING runs on the aggregate.
	err := e.sh.Exec(context.Background(), "SELECT (SELECT sum(value) FROM big HAVING json_extract('x', '$'))")
	if err == nil {
		t.Fatal("no error")
	}
	if got := e.stderr.String(); got != "" {
		t.Errorf("stderr %q, want nothing", got)
	}
}
