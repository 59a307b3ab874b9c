package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Prompts of the interactive shell.
const (
	mainPrompt     = "tetsql> "
	continuePrompt = "   ...> "
)

// Interactive reads commands from lr until end of input or .quit. Errors
// are printed and the shell carries on; Ctrl-C at the prompt discards
// the pending statement, during a statement it cancels that statement.
func (s *Shell) Interactive(ctx context.Context, lr LineReader) error {
	s.interact = true
	defer func() { s.interact = false }()
	var buf buffer
	var lines []string // lines of the pending statement, for history
	var echo echoLines
	for {
		prompt := mainPrompt
		if !buf.Empty() {
			prompt = continuePrompt
		}
		line, err := lr.ReadLine(prompt)
		switch {
		case errors.Is(err, ErrInterrupt):
			buf.Reset()
			lines, echo = nil, echoLines{}
			continue
		case err == io.EOF: // end the prompt's line where the prompt went
			if s.opt.StdoutTerminal {
				fmt.Fprintln(s.opt.Stdout)
			} else {
				fmt.Fprintln(s.opt.Stderr)
			}
			// Ctrl-D on a continuation line: the statement typed so far
			// runs, as in sqlite3 and as at the end of a script, rather
			// than vanishing.
			if q := buf.Flush(); q != "" {
				for _, h := range historyEntries(lines) {
					lr.AddHistory(h)
				}
				echo.flush(s)
				if err := s.runSQL(ctx, q); err != nil {
					s.errorf(err)
					return s.bailOut(err)
				}
			}
			return nil
		case err != nil:
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if buf.Empty() && isDot(line) {
			lr.AddHistory(strings.TrimSpace(line))
			lines = nil
			s.echoText(line)
			if err := s.dot(ctx, line); err != nil {
				if errors.Is(err, ErrQuit) {
					if _, ok := ExitCode(err); ok {
						return err // .exit N: the caller ends with N
					}
					return nil
				}
				s.errorf(err)
				if err := s.bailOut(err); err != nil {
					return err
				}
			}
			continue
		}
		lines = append(lines, line)
		stmts := buf.Add(line)
		echo.add(s, line, len(stmts) > 0, !buf.Empty())
		if len(stmts) > 0 || buf.Empty() {
			for _, h := range historyEntries(lines) {
				lr.AddHistory(h)
			}
			lines = nil
			if !buf.Empty() { // text after the last ';' starts the next statement
				lines = []string{line}
			}
		}
		for _, q := range stmts {
			if err := s.runSQL(ctx, q); err != nil {
				s.errorf(err)
				if err := s.bailOut(err); err != nil {
					return err
				}
				break
			}
		}
	}
}

// historyEntries turns the lines of one statement into history entries:
// one line joined by spaces, or the lines themselves when a "--" comment
// would swallow what follows it.
func historyEntries(lines []string) []string {
	var keep []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			keep = append(keep, t)
		}
	}
	if len(keep) <= 1 {
		return keep
	}
	for _, l := range keep[:len(keep)-1] {
		if strings.Contains(l, "--") {
			return keep
		}
	}
	return []string{strings.Join(keep, " ")}
}
