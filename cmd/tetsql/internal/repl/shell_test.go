package repl_test

import (
	"context"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestInteractive drives the REPL through the line-IO interface.
func TestInteractive(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{Header: true}, ref("sample.tet"))
	in := &fakeLines{lines: []string{
		".mode csv",
		"SELECT d0, value",
		"  FROM temperature -- a comment; not the end",
		"  WHERE d1 = 0 ORDER BY d0;",
		"",
		"SELECT * FROM nope;",
		"SELECT 'x",
		"^C",
		"SELECT 42 AS answer; SELECT",
		"  43 AS next;",
		".quit",
		"SELECT 'not reached';",
	}}
	if err := e.sh.Interactive(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if want := "d0,value\n0,1.0\n1,4.0\nanswer\n42\nnext\n43\n"; e.stdout.String() != want {
		t.Errorf("stdout %q, want %q", e.stdout, want)
	}
	if want := "Error: no such table: nope\n  SELECT * FROM nope;\n                ^\n"; e.stderr.String() != want {
		t.Errorf("stderr %q, want %q", e.stderr, want)
	}
	P, C := repl.Prompt, repl.ContinuePrompt
	if want := []string{P, P, C, C, P, P, P, C, P, C, P}; !reflect.DeepEqual(in.prompts, want) {
		t.Errorf("prompts %q, want %q", in.prompts, want)
	}
	wantHist := []string{".mode csv", "SELECT d0, value", "FROM temperature -- a comment; not the end", "WHERE d1 = 0 ORDER BY d0;",
		"SELECT * FROM nope;", "SELECT 42 AS answer; SELECT", "SELECT 42 AS answer; SELECT 43 AS next;", ".quit"}
	if !reflect.DeepEqual(in.history, wantHist) {
		t.Errorf("history %q,\nwant %q", in.history, wantHist)
	}
}

func TestInteractive_historyJoinsLines(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{}, ref("sample.tet"))
	in := &fakeLines{lines: []string{"SELECT", "  count(*)", "FROM temperature;"}}
	e.sh.Interactive(context.Background(), in)
	if want := []string{"SELECT count(*) FROM temperature;"}; !reflect.DeepEqual(in.history, want) {
		t.Errorf("history %q", in.history)
	}
}

// TestDefaultModes: csv with a header when stdout is not a terminal, box
// when it is.
func TestDefaultModes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{Header: true}, ref("sample.tet"))
	e.exec(t, "SELECT d0, d1 FROM temperature WHERE d0 = 1 AND d1 = 2")
	if e.stdout.String() != "d0,d1\n1,2\n" {
		t.Errorf("not a terminal: %q", e.stdout)
	}
	e = newEnv(t, repl.Options{Header: true, StdoutTerminal: true}, ref("sample.tet"))
	e.exec(t, "SELECT d0, d1 FROM temperature WHERE d0 = 1 AND d1 = 2", ".mode")
	if out := e.stdout.String(); !strings.Contains(out, "│ d0 │ d1 │") || !strings.Contains(out, "current output mode: box (default)") {
		t.Errorf("terminal: %q", out)
	}
	// On a terminal 90 columns wide, box cuts cells at 30 columns.
	e = newEnv(t, repl.Options{StdoutTerminal: true, Width: 90})
	e.exec(t, "SELECT printf('%.50c', 'x') AS long")
	if out := e.stdout.String(); !strings.Contains(out, "│ "+strings.Repeat("x", 29)+"… │") {
		t.Errorf("long cell on a terminal:\n%s", out)
	}
}

func TestCompleteWord(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{}, ref("sample.tet"))
	for _, tt := range []struct {
		line       string
		head, want string
	}{
		{".ta", "", ".tables"},
		{"  .verif", "  ", ".verify"},
		{"SELECT * FROM temp", "SELECT * FROM ", "temperature"},
		{"SELECT * FROM sample.tet_fi", "SELECT * FROM ", "sample.tet_file"},
		{"sel", "", "select"},
		{"SELECT val", "SELECT ", "value"},
	} {
		head, got, tail := e.sh.CompleteWord(tt.line, len(tt.line))
		if head != tt.head || tail != "" || !slices.Contains(got, tt.want) {
			t.Errorf("CompleteWord(%q) = %q, %q, %q; want %q", tt.line, head, got, tail, tt.want)
		}
	}
}

// TestPlainSQLite: temp tables and ATTACH of an ordinary database work
// and persist across statements (one connection for the session).
func TestPlainSQLite(t *testing.T) {
	t.Parallel()
	db := t.TempDir() + "/plain.db"
	e := newEnv(t, repl.Options{Header: true}, ref("sample.tet"))
	e.exec(t, "ATTACH '"+db+"' AS p", "CREATE TABLE p.kv(k TEXT, v REAL)",
		"INSERT INTO p.kv SELECT 'c' || d1, value FROM temperature WHERE d0 = 0",
		"CREATE TEMP VIEW v AS SELECT k, v * 2 AS w FROM p.kv", "SELECT * FROM v ORDER BY k")
	if want := "k,w\nc0,2.0\nc1,4.0\nc2,6.0\n"; e.stdout.String() != want {
		t.Errorf("got %q", e.stdout)
	}
	if err := e.sh.Exec(context.Background(), "DELETE FROM temperature"); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("DELETE on a tet table: %v", err)
	}
}

// longQuery keeps SQLite busy far longer than any test waits.
const longQuery = "SELECT sum(a.value * b.value) FROM big AS a, big AS b"

// TestCancel_context: a long query stops promptly when its context is
// cancelled, with an "interrupted" error, and the connection stays usable.
func TestCancel_context(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{}, bigFile(t, 1<<20, 1<<16))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.sh.Exec(ctx, longQuery) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, repl.ErrInterrupted) || err.Error() != "interrupted" {
			t.Fatalf("got %v, want interrupted", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the query did not stop after cancel")
	}
	e.exec(t, "SELECT count(*) AS n FROM big WHERE i < 10")
	if !strings.HasSuffix(e.stdout.String(), "10\n") {
		t.Errorf("after the interrupt: %q", e.stdout)
	}
}

// TestCancel_interactive: SIGINT during a statement cancels it; the REPL
// reports "interrupted" and runs the next statement.
func TestCancel_interactive(t *testing.T) {
	t.Parallel()
	sigs := make(chan os.Signal, 1)
	e := newEnv(t, repl.Options{Interrupts: sigs}, bigFile(t, 1<<20, 1<<16))
	stop := make(chan struct{})
	in := &fakeLines{lines: []string{longQuery + ";", "SELECT 'still here' AS msg;"}}
	in.onRead = func(i int) {
		if i == 1 { // the long query has returned
			close(stop)
		}
	}
	go func() { // keep pressing Ctrl-C until the query returns
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				select {
				case sigs <- os.Interrupt:
				default:
				}
			}
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := make(chan error, 1)
	go func() { res <- e.sh.Interactive(ctx, in) }()
	select {
	case err := <-res:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		cancel() // stop the query so that the cleanup can close the connection
		<-res
		t.Fatal("Ctrl-C did not stop the query")
	}
	if !strings.Contains(e.stderr.String(), "Error: interrupted\n") {
		t.Errorf("stderr %q", e.stderr)
	}
	if !strings.Contains(e.stdout.String(), "still here") {
		t.Errorf("stdout %q", e.stdout)
	}
}

// TestExport: .output streams every row to the file; mode follows the
// file's extension unless set.
func TestExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, repl.Options{Header: true, StdoutTerminal: true}, bigFile(t, 100000, 4096))
	if err := e.sh.SetOutput(dir + "/all.csv"); err != nil {
		t.Fatal(err)
	}
	e.exec(t, "SELECT i, value FROM big")
	e.sh.SetOutput(dir + "/some.jsonl")
	e.exec(t, "SELECT i FROM big WHERE i < 2")
	e.sh.SetOutput("")
	csv := readFile(t, dir+"/all.csv")
	if lines := strings.Count(csv, "\n"); lines != 100001 || !strings.HasPrefix(csv, "i,value\n0,0\n1,1\n") || !strings.HasSuffix(csv, "99999,189\n") {
		t.Errorf("csv export: %d lines, starts %q", lines, csv[:min(40, len(csv))])
	}
	if got := readFile(t, dir+"/some.jsonl"); got != "{\"i\":0}\n{\"i\":1}\n" {
		t.Errorf("jsonl export %q", got)
	}
	if e.stdout.String() != "" {
		t.Errorf("stdout got %q", e.stdout)
	}
}

// TestInteractive_eofRunsPending: Ctrl-D on a continuation line runs the
// statement typed so far, as sqlite3 does, instead of dropping it; an
// incomplete one reports its error.
func TestInteractive_eofRunsPending(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		lines          []string
		stdout, stderr string
		history        []string
	}{
		{name: "complete statement", lines: []string{".mode csv", "SELECT 7", "  AS seven"},
			stdout: "seven\n7\n", stderr: "\n", history: []string{".mode csv", "SELECT 7 AS seven"}},
		{name: "unterminated string", lines: []string{"SELECT 'x"},
			stderr: "\nError: unrecognized token: \"'x\"\n", history: []string{"SELECT 'x"}},
		{name: "nothing pending", lines: []string{".mode csv", "SELECT 1 AS one;"},
			stdout: "one\n1\n", stderr: "\n", history: []string{".mode csv", "SELECT 1 AS one;"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, repl.Options{Header: true})
			in := &fakeLines{lines: tc.lines}
			if err := e.sh.Interactive(context.Background(), in); err != nil {
				t.Fatal(err)
			}
			if got := e.stdout.String(); got != tc.stdout {
				t.Errorf("stdout %q, want %q", got, tc.stdout)
			}
			// An error may go on with a caret line under the token.
			if got := e.stderr.String(); got != tc.stderr && (!strings.Contains(tc.stderr, "Error") || !strings.HasPrefix(got, tc.stderr)) {
				t.Errorf("stderr %q, want %q", got, tc.stderr)
			}
			if !reflect.DeepEqual(in.history, tc.history) {
				t.Errorf("history %q, want %q", in.history, tc.history)
			}
		})
	}
}
