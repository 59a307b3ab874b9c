package repl_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
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

// TestExitStatus: .exit N and .quit N report the status; a plain .quit
// is ErrQuit; the interactive shell hands the status on.
func TestExitStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{})
	for cmd, want := range map[string]int{".exit 3": 3, ".quit 7": 7, ".exit 0": 0, ".EXIT 255": 255} {
		err := e.sh.Exec(context.Background(), cmd)
		if code, ok := repl.ExitCode(err); !ok || code != want || !errors.Is(err, repl.ErrQuit) {
			t.Errorf("%s: %v (status %d, %v), want status %d", cmd, err, code, ok, want)
		}
	}
	if err := e.sh.Exec(context.Background(), ".exit"); !errors.Is(err, repl.ErrQuit) {
		t.Errorf(".exit: %v", err)
	} else if _, ok := repl.ExitCode(err); ok {
		t.Errorf(".exit has a status: %v", err)
	}
	for _, bad := range []string{".exit abc", ".exit -1", ".exit 256", ".exit 1 2"} {
		// The usage names the command as typed (.exit, not its .quit).
		if err := e.sh.Exec(context.Background(), bad); err == nil || errors.Is(err, repl.ErrQuit) || !strings.Contains(err.Error(), "usage: .exit [STATUS]") {
			t.Errorf("%s: %v, want a usage error", bad, err)
		}
	}
	err := e.sh.Interactive(context.Background(), &fakeLines{lines: []string{".exit 4", ".print after"}})
	if code, ok := repl.ExitCode(err); !ok || code != 4 {
		t.Errorf("interactive .exit 4: %v", err)
	}
	if err := e.sh.Interactive(context.Background(), &fakeLines{lines: []string{".quit", ".print after"}}); err != nil {
		t.Errorf("interactive .quit: %v", err)
	}
	if strings.Contains(e.stdout.String(), "after") {
		t.Error("the shell went on after .exit")
	}
}

// TestDotPrefix: a name or alias as typed wins; else a prefix of one
// command runs it; a prefix of several is an error naming them; an
// unknown name keeps its "did you mean".
func TestDotPrefix(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{})
	e.exec(t, ".nu X", ".mo csv", ".hea off", ".pr hi", "SELECT NULL AS n")
	if got, want := e.stdout.String(), "hi\nX\n"; got != want {
		t.Errorf("prefixes: got %q, want %q", got, want)
	}
	e.exec(t, ".sho")
	if show := e.stdout.String(); !strings.Contains(show, "nullvalue: \"X\"") || !strings.Contains(show, "mode: csv") {
		t.Errorf(".sho did not run .show: %q", show)
	}
	for cmd, want := range map[string]string{
		".s":      `".s" is ambiguous: .schema, .show, .stats`,
		".e":      `".e" is ambiguous: .echo, .exit`,
		".h":      `".h" is ambiguous: .headers, .help`,
		".tabels": `unknown command ".tabels" — did you mean .tables?`,
		".sh":     `unknown command ".sh"`, // sqlite3's .shell: not a prefix of .show
		".help s": `".s" is ambiguous: .schema, .show, .stats`,
	} {
		err := e.sh.Exec(context.Background(), cmd)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", cmd, err, want)
		}
	}
	if err := e.sh.Exec(context.Background(), ".q"); !errors.Is(err, repl.ErrQuit) {
		t.Errorf(".q: %v, want ErrQuit", err)
	}
	if err := e.sh.Exec(context.Background(), ".header on"); err != nil { // an alias as typed
		t.Errorf(".header on: %v", err)
	}
	safe := newEnv(t, repl.Options{Safe: true})
	for _, cmd := range []string{".rea x.sql", ".outp x.csv", ".onc x.csv"} {
		var na *tetsql.NotAllowedError
		if err := safe.sh.Exec(context.Background(), cmd); !errors.As(err, &na) {
			t.Errorf("safe mode, %s: %v, want refused", cmd, err)
		}
	}
}

// TestShowEverySetting: .show lists every setting a dot command or flag
// sets, .maxrows, a pending .once and Parquet's compression among them.
func TestShowEverySetting(t *testing.T) {
	t.Parallel()
	once := filepath.Join(t.TempDir(), "o.csv")
	e := newEnv(t, repl.Options{Compression: "snappy"})
	e.exec(t, ".maxrows 7", ".once "+once, ".show")
	show := e.stdout.String()
	for _, want := range []string{"    maxrows: 7\n", "       once: " + once + "\n", "compression: snappy\n",
		"       mode: ", "    headers: ", "  nullvalue: ", "     output: stdout\n", "      timer: ", "      stats: ",
		"       echo: ", "       bail: ", "      width: auto\n", " parameters: 0\n", "       safe: off\n"} {
		if !strings.Contains(show, want) {
			t.Errorf(".show lacks %q:\n%s", want, show)
		}
	}
}
