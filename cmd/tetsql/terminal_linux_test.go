package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestTerminal_fit: on a 30-column terminal a wide result is narrowed
// to the window, says which columns it left out, and a long one shows
// 40 rows and says how many it had; each result ends with a row count
// and its time. The window is measured again for each result.
func TestTerminal_fit(t *testing.T) {
	t.Parallel()
	demo, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	ts := startTerm(t, 50, 30, demo)
	ts.waitFor("tetsql> ")
	ts.typeText("SELECT 1 AS a, 'a long text value' AS b, 'another long text' AS c, 'and a third one' AS d;\r")
	s := ts.waitFor("(.mode line shows all)")
	box := s[strings.Index(s, "┌") : strings.Index(s, "┘")+len("┘")]
	for _, line := range strings.Split(box, "\n") {
		if n := utf8.RuneCountInString(line); n > 30 {
			t.Errorf("line of %d columns on a 30-column terminal: %q", n, line)
		}
	}
	if !strings.Contains(box, "│ … │") || !strings.Contains(s, "1 row · 4 columns, 2 shown (.mode line shows all) · ") {
		t.Errorf("no … column or footer:\n%s", s)
	}
	// A wider window: the same result is shown whole.
	ts.resize(50, 100)
	ts.typeText("SELECT 2 AS a, 'a long text value' AS b, 'another long text' AS c, 'and a third one' AS d;\r")
	s = ts.waitFor("│ 2 │ a long text value │ another long text │ and a third one │")
	ts.typeText("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50) SELECT x FROM c;\r")
	s = ts.waitFor("50 rows, 40 shown (.maxrows 0 shows all) · ")
	if !strings.Contains(s, "│ 40 │") || strings.Contains(s, "│ 41 │") {
		t.Errorf("want rows 1 to 40 only:\n%s", s)
	}
	ts.typeText(".quit\r")
	if code := ts.wait(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestTerminal_ctrlD: Ctrl-D on a continuation line runs the statement
// typed so far and ends the shell; Ctrl-D on an empty line ends it.
func TestTerminal_ctrlD(t *testing.T) {
	t.Parallel()
	ts := startTerm(t, 24, 80)
	ts.waitFor("tetsql> ")
	ts.typeText("SELECT 6\r")
	ts.waitFor("...> ")
	ts.typeText("  * 7 AS answer\r")
	ts.waitFor("...> ")
	ts.typeText("\x04")
	if code := ts.wait(); code != 0 {
		t.Errorf("exit %d", code)
	}
	if s := ts.screen(); !strings.Contains(s, "│ answer │") || !strings.Contains(s, "│     42 │") || !strings.Contains(s, "1 row · ") {
		t.Errorf("the pending statement did not run:\n%s", s)
	}
}

// TestTerminal_ctrlC: Ctrl-C during a statement cancels it and the
// shell goes on; Ctrl-C at the prompt drops the pending text.
func TestTerminal_ctrlC(t *testing.T) {
	t.Parallel()
	ts := startTerm(t, 24, 80)
	ts.waitFor("tetsql> ")
	ts.typeText("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;\r")
	time.Sleep(300 * time.Millisecond) // the statement runs
	ts.typeText("\x03")
	ts.waitFor("Error: interrupted")
	ts.typeText("SELECT 'dropped'\r")
	ts.waitFor("...> ")
	ts.typeText("\x03")
	ts.typeText("SELECT 5 AS five;\r")
	s := ts.waitFor("1 row · ")
	if !strings.Contains(s, "│ five │") || strings.Contains(s, "│ dropped") {
		t.Errorf("after Ctrl-C:\n%s", s)
	}
	ts.typeText(".quit\r")
	if code := ts.wait(); code != 0 {
		t.Errorf("exit %d", code)
	}
}
