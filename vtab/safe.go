package vtab

import "github.com/tetsql/tetsql/internal/scan"

// Panic safety. A panic in a callback must not unwind through SQLite
// (the transpiled C code and database/sql above it hold locks: the
// process would die, or the connection deadlock and leak). The binding
// (internal/sqlitevt) recovers in every callback and asks the table for
// the error (Panicked: an *InternalError), which fails the statement;
// the connection stays usable. Goroutines a query starts (the engine's
// read-ahead and fold workers) recover on their own and return the
// panic as their error.

// ErrInternal is matched (errors.Is) by the error a recovered panic
// becomes.
var ErrInternal = scan.ErrInternal

// InternalError is a panic recovered in a callback or worker.
type InternalError = scan.InternalError

// internalError wraps a recovered panic value p, in table (may be "").
func internalError(table, where string, p any) error { return scan.Internal(table, where, p) }

// panicPoint panics if a test asked for a panic at where (scan.PanicAt).
func panicPoint(where string) { scan.PanicPoint(where) }
