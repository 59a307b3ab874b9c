package repl

import (
	"context"
	"errors"

	"github.com/tetsql/tetsql"
)

// stmtError is the error of a statement as the shell reports it: the
// message with a "did you mean" suggestion, and the statement's line
// with a caret under the token SQLite named. It wraps the statement's
// error, so errors.Is and errors.As see the driver's and tetsql's.
type stmtError struct {
	err   error
	msg   string // tidied message and suggestion
	where string // statement line and caret (pointAt); "" = none
}

func (e *stmtError) Error() string { return e.msg }
func (e *stmtError) Unwrap() error { return e.err }

// explain returns err, the error of statement q, as a *stmtError when
// SQLite's message names a token: placed in q when it is found there,
// with close names for a misspelt table, column or function. Anything
// going wrong while it looks for names leaves the suggestion out; an
// interrupted or refused statement, or any other error, is returned as
// it is.
func (s *Shell) explain(ctx context.Context, q string, err error) error {
	if err == nil || ctx.Err() != nil || errors.Is(err, ErrInterrupted) || errors.Is(err, tetsql.ErrNotAllowed) {
		return err
	}
	msg := tidy(err.Error())
	tok, kind := errorToken(msg)
	if kind == kindNone {
		return err
	}
	width := 0
	if s.opt.StderrTerminal {
		width = s.opt.Width
	}
	e := &stmtError{err: err, msg: msg + didYouMean(s.suggestions(ctx, q, tok, kind))}
	if off := findToken(q, tok); off >= 0 {
		e.where = pointAt(q, off, width)
	}
	return e
}
