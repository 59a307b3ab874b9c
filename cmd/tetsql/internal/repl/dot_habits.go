package repl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// .echo, .bail and .width: sqlite3's commands of the same names.

// ErrBail ends the interactive shell when .bail is on (or -bail was
// given) and a command failed; the failure has been reported already.
var ErrBail = errors.New("stopped at the first error (.bail on)")

func (s *Shell) dotEcho(_ context.Context, args []string) (err error) {
	s.echo, err = onOff("echo", args[0])
	return err
}

func (s *Shell) dotBail(_ context.Context, args []string) (err error) {
	s.bail, err = onOff("bail", args[0])
	return err
}

// bailOut is what the interactive shell returns after reporting err:
// ErrBail (wrapping err) when .bail is on, nil to carry on. Ctrl-C is
// the user's own doing and never ends the shell.
func (s *Shell) bailOut(err error) error {
	if !s.bail || errors.Is(err, ErrInterrupted) {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrBail, err)
}

// echoText writes text, a command as it was read, where the results of
// the next statement go when .echo is on, as sqlite3 does: standard
// output, the .output or .once file. Binary output (Parquet, Arrow)
// holds nothing else, so the echo goes to standard error then.
func (s *Shell) echoText(text string) {
	if !s.echo {
		return
	}
	k := s.once
	if k == nil {
		k = s.out
	}
	w := s.opt.Stdout
	if k != nil {
		w = k.file
	}
	if s.modeFor(k).Binary() || (k != nil && k.held.name != "") || (k == nil && s.stdoutHeld.name != "") {
		w = s.opt.Stderr
	}
	fmt.Fprintln(w, text)
}

// echoLines collects the lines of input that make up statements, so
// that .echo shows them as read once a line completes a statement.
type echoLines struct{ lines []string }

// add records line, read while (after it) pending tells whether a
// statement is unfinished, and echoes the lines read so far once done
// says that line completed one. Blank and comment lines between
// statements are not echoed.
func (e *echoLines) add(s *Shell, line string, done, pending bool) {
	if !done && !pending && len(e.lines) == 0 {
		return
	}
	e.lines = append(e.lines, line)
	if done {
		e.flush(s)
	}
}

// flush echoes the lines collected (a last statement without ';').
func (e *echoLines) flush(s *Shell) {
	if len(e.lines) > 0 {
		s.echoText(strings.Join(e.lines, "\n"))
	}
	e.lines = nil
}

// dotWidth sets the column widths of box, table, markdown and column
// output (sqlite3's .width): one number per column, 0 = automatic, a
// negative width right-aligns. Without arguments every column is
// automatic again.
func (s *Shell) dotWidth(_ context.Context, args []string) error {
	widths := make([]int, len(args))
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil || n > maxWidth || n < -maxWidth {
			return fmt.Errorf("usage: .width N1 N2 … (columns wide, 0 = automatic, negative = right-aligned; at most %d), got %q", maxWidth, a)
		}
		widths[i] = n
	}
	for len(widths) > 0 && widths[len(widths)-1] == 0 {
		widths = widths[:len(widths)-1]
	}
	s.widths = widths
	return nil
}

// maxWidth bounds a .width entry (sqlite3 takes up to 30000 too).
const maxWidth = 30000

// widthText is .show's width line: the widths set, or "auto".
func (s *Shell) widthText() string {
	if len(s.widths) == 0 {
		return "auto"
	}
	parts := make([]string, len(s.widths))
	for i, w := range s.widths {
		parts[i] = strconv.Itoa(w)
	}
	return strings.Join(parts, " ")
}
