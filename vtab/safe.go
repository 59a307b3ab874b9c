package vtab

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/tetsql/tetsql/tetcore"
)

// Panic safety. A panic in a callback must not unwind through SQLite
// (the transpiled C code and database/sql above it hold locks: the
// process would die, or the connection deadlock and leak). The binding
// (internal/sqlitevt) recovers in every callback and asks the table for
// the error (Panicked: an *InternalError), which fails the statement;
// the connection stays usable. Goroutines a query starts recover on
// their own (a panic there ends the process whatever the SQLite thread
// does) and return the panic as their error.

// ErrInternal is matched (errors.Is) by the error a recovered panic
// becomes.
var ErrInternal = errors.New("internal error")

// InternalError is a panic recovered in a callback or worker.
type InternalError struct {
	Where string // the callback, e.g. "xFilter", or "fold worker"
	Value any    // what was panicked with
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("tet: internal error in %s: %v", e.Where, e.Value)
}

// Is makes errors.Is(err, ErrInternal) hold.
func (e *InternalError) Is(target error) bool { return target == ErrInternal }

// Unwrap exposes an error panic value.
func (e *InternalError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// internalError wraps a recovered panic value p, in table (may be "").
func internalError(table, where string, p any) error {
	if table != "" {
		where = table + " " + where
	}
	return &InternalError{Where: where, Value: p}
}

// faultError turns a recovered memory fault (a read of a mapping whose
// file shrank, with debug.SetPanicOnFault on) into an error wrapping
// tetcore.ErrTruncated; any other panic value gives nil.
func faultError(table, path string, p any) error {
	// The runtime's text for such a panic speaks of a nil pointer;
	// what happened is a read of a page the file no longer has.
	if f, ok := p.(interface{ Addr() uintptr }); ok {
		if _, ok := p.(error); ok {
			return fmt.Errorf("tet: %s: file %s was truncated while in use (memory fault at %#x): %w", table, path, f.Addr(), tetcore.ErrTruncated)
		}
	}
	return nil
}

// panicAt names the callback a test wants to panic in ("" = none); see
// panicPoint.
var panicAt atomic.Pointer[string]

// panicPoint panics if a test asked for a panic at where. It is how the
// tests prove every callback's recovery; it costs one atomic load.
func panicPoint(where string) {
	if p := panicAt.Load(); p != nil && *p == where {
		panic("test panic in " + where)
	}
}
