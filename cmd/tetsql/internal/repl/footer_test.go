package repl_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// ticker is a clock that moves d forward at every reading.
func ticker(d time.Duration) func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(d); return t }
}

// TestFooter: after a result on the terminal the shell says how many
// rows it had, what a grid held back, and how long the statement took;
// without Footer only what was held back; never after a statement
// without results or for a result sent to a file.
func TestFooter(t *testing.T) {
	t.Parallel()
	const fifty = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50) SELECT x FROM c"
	const wide = "SELECT 1 AS a, 'a long text value' AS b, 'another long text' AS c, 'and a third one' AS d"
	tests := []struct {
		name   string
		opt    repl.Options
		cmds   []string
		footer string // the last line of stdout; "" = no footer
	}{
		{name: "one row", opt: repl.Options{Footer: true}, cmds: []string{"SELECT 1"}, footer: "1 row · 0.004 s"},
		{name: "no rows", opt: repl.Options{Footer: true}, cmds: []string{"SELECT 1 WHERE 0"}, footer: "0 rows · 0.004 s"},
		{name: "csv on a terminal", opt: repl.Options{Footer: true}, cmds: []string{".mode csv", fifty}, footer: "50 rows · 0.004 s"},
		{name: "rows held back", opt: repl.Options{Footer: true}, cmds: []string{fifty},
			footer: "50 rows, 40 shown (.maxrows 0 shows all) · 0.004 s"},
		{name: "columns held back", opt: repl.Options{Footer: true, Width: 30}, cmds: []string{wide},
			footer: "1 row · 4 columns, 2 shown (.mode line shows all) · 0.004 s"},
		{name: "both, no Footer", opt: repl.Options{Width: 30}, cmds: []string{".maxrows 3", strings.Replace(fifty, "SELECT x FROM c", "SELECT x, 'a long text value' AS b, 'another long text' AS c, 'and a third one' AS d FROM c", 1)},
			footer: "50 rows, 3 shown (.maxrows 0 shows all) · 4 columns, 2 shown (.mode line shows all)"},
		{name: "no Footer", cmds: []string{"SELECT 1"}},
		{name: "no results", opt: repl.Options{Footer: true}, cmds: []string{"CREATE TEMP TABLE t(x)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.opt.StdoutTerminal, tc.opt.Now = true, ticker(4*time.Millisecond)
			e := newEnv(t, tc.opt)
			e.exec(t, tc.cmds...)
			lines := strings.Split(strings.TrimSuffix(e.stdout.String(), "\n"), "\n")
			last := lines[len(lines)-1]
			if tc.footer == "" {
				if strings.Contains(e.stdout.String(), " row") {
					t.Errorf("unexpected footer in\n%s", e.stdout)
				}
				return
			}
			if last != tc.footer {
				t.Errorf("footer %q, want %q; output:\n%s", last, tc.footer, e.stdout)
			}
			for _, l := range lines {
				if w := len([]rune(l)); tc.opt.Width > 0 && w > tc.opt.Width && l != last {
					t.Errorf("line of %d columns on a %d-column terminal: %q", w, tc.opt.Width, l)
				}
			}
		})
	}
}

// TestFooterFile: a result sent to a file gets no footer, there or on
// the terminal.
func TestFooterFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{StdoutTerminal: true, Footer: true, Now: ticker(time.Millisecond)})
	out := t.TempDir() + "/x.csv"
	e.exec(t, ".once "+out, "SELECT 1")
	if s := e.stdout.String(); s != "" {
		t.Errorf("stdout %q, want nothing", s)
	}
}

func TestSeconds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{4 * time.Millisecond, "0.004 s"},
		{1234 * time.Millisecond, "1.234 s"},
		{12345 * time.Millisecond, "12.3 s"},
		{125 * time.Second, "2 min 5 s"},
	} {
		if got := repl.Seconds(tc.d); got != tc.want {
			t.Errorf("Seconds(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
