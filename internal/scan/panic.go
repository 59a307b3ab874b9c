package scan

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/tetsql/tetsql/array"
)

// Panic safety. A panic in a callback must not unwind through SQLite,
// and a panic on a goroutine a query starts would end the process
// whatever the SQLite thread recovers: the engine's workers (read-ahead,
// folds) recover their own panics and return them as errors.

// ErrInternal is matched (errors.Is) by the error a recovered panic
// becomes.
var ErrInternal = errors.New("internal error")

// InternalError is a panic recovered in a callback or worker.
type InternalError struct {
	Where string // the callback, e.g. "xFilter", or "fold worker"
	Value any    // what was panicked with
}

// Error names where the panic happened and its value.
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

// Internal wraps a recovered panic value p, in table (may be "").
func Internal(table, where string, p any) error {
	if table != "" {
		where = table + " " + where
	}
	return &InternalError{Where: where, Value: p}
}

// faultError turns a recovered memory fault (a read of a mapping whose
// file shrank, with debug.SetPanicOnFault on) into an error wrapping
// array.ErrTruncated; any other panic value gives nil.
func faultError(table, path string, p any) error {
	// The runtime's text for such a panic speaks of a nil pointer;
	// what happened is a read of a page the file no longer has.
	if f, ok := p.(interface{ Addr() uintptr }); ok {
		if _, ok := p.(error); ok {
			return fmt.Errorf("tet: %s: file %s was truncated while in use (memory fault at %#x): %w", table, path, f.Addr(), array.ErrTruncated)
		}
	}
	return nil
}

// panicAt names the callback or worker a test wants to panic in (nil =
// none); see PanicPoint.
var panicAt atomic.Pointer[string]

// PanicPoint panics if a test asked for a panic at where (see PanicAt).
// It is how the tests prove every callback's and worker's recovery; it
// costs one atomic load.
func PanicPoint(where string) {
	if p := panicAt.Load(); p != nil && *p == where {
		panic("test panic in " + where)
	}
}

// PanicAt makes PanicPoint(where) panic ("xFilter", "fold worker",
// "read-ahead worker", …) until restore is called: fault injection for
// tests, not for parallel ones.
func PanicAt(where string) (restore func()) {
	panicAt.Store(&where)
	return func() { panicAt.Store(nil) }
}
