package repl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
)

// QuitError is what .exit N and .quit N report: the shell is to end
// with exit status Code, as sqlite3's .exit N ends it (from the shell,
// -c, -cmd, a script, the init file or a script it reads). It is
// ErrQuit for errors.Is.
type QuitError struct{ Code int }

// Error says the status asked for.
func (e *QuitError) Error() string { return "quit with status " + strconv.Itoa(e.Code) }

// Is makes a QuitError match ErrQuit.
func (e *QuitError) Is(target error) bool { return target == ErrQuit }

// ExitCode returns the exit status a .exit N or .quit N in err's chain
// asked for, and false when there is none (a plain .quit is status 0).
func ExitCode(err error) (int, bool) {
	var q *QuitError
	if errors.As(err, &q) {
		return q.Code, true
	}
	return 0, false
}

// dotQuit is .quit and .exit: ErrQuit, or a QuitError for a status
// (0 to 255: what a process can return; sqlite3 reads atoi(N) & 255, so
// "abc" as 0, which here is a usage error rather than a silent 0).
func (s *Shell) dotQuit(_ context.Context, args []string) error { // .quit and .exit alike
	if len(args) == 0 {
		return ErrQuit
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 || n > 255 {
		return fmt.Errorf("usage: .exit [STATUS] (0 to 255), got %q", args[0])
	}
	return &QuitError{Code: n}
}
