package repl_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// liveAtOnce makes the progress line draw as the statement starts (with
// a clock that stands still, so the line's bytes are known) and never
// again: what is drawn and cleared does not depend on timing.
func liveAtOnce(sh *repl.Shell) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sh.SetLive(-1, time.Hour, func() time.Time { return t0 })
}

// firstLine is the line drawn as a statement starts, nothing counted yet.
const firstLine = "\r0 chunks  0 rows  0.0 s\033[K"

// TestLive_drawnAndCleared: on a terminal's stderr the line is drawn
// and cleared by a statement that succeeds and by one that fails; not
// when stderr is not a terminal, nor in a script, nor when the results
// go to a file (whose export line owns stderr), nor when standard output
// is a pipe (which may end on the same terminal). Standard output is a
// regular file otherwise.
func TestLive_drawnAndCleared(t *testing.T) {
	big := bigFile(t, 100_000, 1000)
	out := filepath.Join(t.TempDir(), "out.csv")
	for _, tc := range []struct {
		name       string
		terminal   bool
		pipe       bool // standard output is a pipe, not a regular file
		run        func(*repl.Shell) error
		wantStderr string
		wantErr    bool
	}{
		{"success", true, false, func(sh *repl.Shell) error { return sh.Exec(context.Background(), "SELECT count(*) FROM big") },
			firstLine + "\r\033[K", false},
		{"error", true, false, func(sh *repl.Shell) error { return sh.Exec(context.Background(), "SELECT nosuch FROM big") },
			firstLine + "\r\033[K", true},
		{"stdout a pipe", true, true, func(sh *repl.Shell) error { return sh.Exec(context.Background(), "SELECT count(*) FROM big") },
			"", false},
		{"not a terminal", false, false, func(sh *repl.Shell) error { return sh.Exec(context.Background(), "SELECT count(*) FROM big") },
			"", false},
		{"script", true, false, func(sh *repl.Shell) error {
			return sh.RunScript(context.Background(), strings.NewReader("SELECT count(*) FROM big;\n"), "s.sql")
		}, "", false},
		{".output file", true, false, func(sh *repl.Shell) error {
			ctx := context.Background()
			if err := sh.Exec(ctx, ".output "+out); err != nil {
				return err
			}
			return sh.Exec(ctx, "SELECT count(*) FROM big")
		}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, repl.Options{Mode: "csv", StderrTerminal: tc.terminal, StdoutRegular: !tc.pipe}, big)
			liveAtOnce(e.sh)
			err := tc.run(e.sh)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want one: %v", err, tc.wantErr)
			}
			if got := e.stderr.String(); got != tc.wantStderr {
				t.Errorf("stderr %q, want %q", got, tc.wantStderr)
			}
			if !tc.wantErr && tc.name != ".output file" && e.stdout.String() != "100000\n" {
				t.Errorf("stdout %q", e.stdout)
			}
		})
	}
}

// TestLive_clearedBeforeRows: with stdout on the same terminal, the
// line is cleared before the first result byte, and not drawn again
// while rows stream out.
func TestLive_clearedBeforeRows(t *testing.T) {
	big := bigFile(t, 100_000, 1000)
	e := newEnv(t, repl.Options{Mode: "csv", StdoutTerminal: true, StderrTerminal: true}, big)
	term := &syncBuffer{} // stdout and stderr: one terminal
	e.sh.SetOutputsForTest(term, term)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e.sh.SetLive(-1, time.Nanosecond, func() time.Time { return t0 })
	if err := e.sh.Exec(context.Background(), "SELECT i FROM big WHERE i < 30000"); err != nil {
		t.Fatal(err)
	}
	got := term.String()
	rows := got[strings.Index(got, "0\n"):]
	if strings.ContainsAny(rows, "\r\033") {
		t.Errorf("the line was drawn among the rows: %q", rows[:min(len(rows), 200)])
	}
	if pre := got[:len(got)-len(rows)]; !strings.HasPrefix(pre, firstLine) || !strings.HasSuffix(pre, "\r\033[K") {
		t.Errorf("before the rows %q, want the line then cleared", pre)
	}
	if n := strings.Count(rows, "\n"); n != 30000 {
		t.Errorf("%d rows, want 30000", n)
	}
}

// TestLive_interrupt: Ctrl-C during a statement clears the line.
func TestLive_interrupt(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	e := newEnv(t, repl.Options{Mode: "csv", StderrTerminal: true, StdoutRegular: true, Interrupts: sigs})
	liveAtOnce(e.sh)
	done := make(chan struct{})
	go func() { // Ctrl-C until the statement ends (the first may come before it starts)
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				select {
				case sigs <- os.Interrupt:
				default:
				}
			}
		}
	}()
	err := e.sh.Exec(context.Background(), "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c")
	close(done)
	if !errors.Is(err, repl.ErrInterrupted) {
		t.Fatalf("error %v, want interrupted", err)
	}
	if got := e.stderr.String(); got != firstLine+"\r\033[K" {
		t.Errorf("stderr %q, want the line drawn and cleared", got)
	}
}
