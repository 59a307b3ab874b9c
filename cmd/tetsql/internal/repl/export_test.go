package repl

import (
	"io"
	"time"
)

// Hooks for the external tests.

// Prompts of the interactive shell.
const (
	Prompt         = mainPrompt
	ContinuePrompt = continuePrompt
)

// Buffer is the statement buffer of interactive and piped input.
type Buffer = buffer

// Split cuts a whole script into statements, as RunScript does.
func Split(script string) (stmts []string, rest string) { return splitScript(script) }

// ErrOutputIsInput is the error of an output file that is an input.
var ErrOutputIsInput = errOutputIsInput

// ParseDot splits a dot command line like the shell does.
func ParseDot(line string) (name string, args []string, err error) { return parseDot(line) }

// Complete reports whether sql ends with a complete statement, like
// sqlite3_complete: the statement cutter's state machine seen whole.
func Complete(sql string) bool {
	var b Buffer
	stmts := b.add(sql)
	return len(stmts) > 0 && b.Empty()
}

// Seconds is the footer's form of a duration.
var Seconds = seconds

// SetLive sets the progress line's delay before the first draw (< 0:
// at once, before the statement runs), its redraw interval and its clock.
func (s *Shell) SetLive(delay, every time.Duration, now func() time.Time) {
	s.live.delay, s.live.every, s.live.now = delay, every, now
}

// SetHint sets the _agg hint's thresholds: chunks decoded, scan time.
func (s *Shell) SetHint(chunks int64, d time.Duration) {
	s.live.hintChunks, s.live.hintTime = chunks, d
}

// SetOutputsForTest replaces the shell's standard output and error.
func (s *Shell) SetOutputsForTest(stdout, stderr io.Writer) {
	s.opt.Stdout, s.opt.Stderr = stdout, stderr
}
