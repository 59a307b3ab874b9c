package tetsql

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// Resource limits for one statement: a time limit (Config.StatementTimeout)
// and a limit on the rows returned (Config.MaxRows). Both end the
// statement with an error and leave the connection usable. Safe mode
// turns them on by default (SafeStatementTimeout, SafeMaxRows,
// SafeMemLimit).

// Defaults in safe mode for limits the configuration leaves at 0.
const (
	SafeStatementTimeout = 30 * time.Second
	SafeMaxRows          = 1_000_000
	SafeMemLimit         = 256 << 20
	// SafeReadAheadBytes bounds what one scan decodes ahead in safe mode
	// (read-ahead is on by default): a quarter of SafeMemLimit, so that
	// a few concurrent scans of untrusted SQL stay near it.
	SafeReadAheadBytes = 64 << 20
)

// ErrTimeLimit is matched (errors.Is) by a statement that ran past the
// statement time limit; so is context.DeadlineExceeded.
var ErrTimeLimit = errors.New("statement time limit exceeded")

// ErrMaxRows is matched (errors.Is) by a result that has more rows than
// the limit on rows returned.
var ErrMaxRows = errors.New("too many rows")

// TimeLimitError is the error of a statement that ran past Limit.
type TimeLimitError struct{ Limit time.Duration }

// Error says which limit the statement exceeded.
func (e *TimeLimitError) Error() string {
	return fmt.Sprintf("statement time limit of %s exceeded", e.Limit)
}

// Is makes errors.Is hold for ErrTimeLimit and context.DeadlineExceeded.
func (e *TimeLimitError) Is(target error) bool {
	return target == ErrTimeLimit || target == context.DeadlineExceeded
}

// MaxRowsError is the error of a result with more than Limit rows.
type MaxRowsError struct{ Limit int64 }

// Error says how many rows the result was limited to.
func (e *MaxRowsError) Error() string {
	return fmt.Sprintf("result has more than %d rows (max_rows)", e.Limit)
}

// Is makes errors.Is(err, ErrMaxRows) hold.
func (e *MaxRowsError) Is(target error) bool { return target == ErrMaxRows }

// effective resolves a limit: 0 takes the safe-mode default (or none
// outside safe mode), a negative value is none.
func effective[T int64 | time.Duration](v T, safe bool, def T) T {
	switch {
	case v < 0:
		return 0
	case v == 0 && safe:
		return def
	}
	return v
}

// limitCtx derives the context of one statement: ctx with the time limit,
// if any. cancel must be called when the statement ends.
func (c *Conn) limitCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.timeout <= 0 {
		return ctx, func() {}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithTimeoutCause(ctx, c.timeout, &TimeLimitError{Limit: c.timeout})
}

// stepper interrupts SQLite when the context of a statement is done while
// its rows are being stepped: modernc interrupts only the first step
// (inside QueryContext), so pure SQLite work between two rows (a
// recursive CTE, a sort's merge) would run on after a deadline.
type stepper struct {
	db sqlitevt.Handle // zero if unknown, or once the connection is closed
	mu sync.Mutex
	on bool // a step runs
}

// newStepper finds the sqlite3 handle of modernc's connection; should a
// later modernc hide it, stepping is merely not interrupted (the cursors
// of the tet tables still watch the context).
func newStepper(inner driver.Conn) *stepper {
	db, _ := sqlitevt.HandleOf(inner)
	return &stepper{db: db}
}

// watch arranges that the end of ctx interrupts the steps of a
// statement's rows (see step); the returned stop undoes it. Registering
// once per statement, not per row, keeps a row's cost at two lock pairs.
func (s *stepper) watch(ctx context.Context) (stop func() bool) {
	if s.db.IsZero() || ctx == nil || ctx.Done() == nil {
		return nil
	}
	return context.AfterFunc(ctx, func() {
		s.mu.Lock()
		if s.on && !s.db.IsZero() {
			s.db.Interrupt()
		}
		s.mu.Unlock()
	})
}

// begin starts a step of the rows of a watched statement whose context
// is ctx: until end, the end of ctx interrupts SQLite. Once ctx is done
// no step starts: begin returns its error.
func (s *stepper) begin(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	s.on = true
	return nil
}

// end ends the step begun by begin.
func (s *stepper) end() {
	s.mu.Lock()
	s.on = false
	s.mu.Unlock()
}

// setLimits applies sqlite3_limit settings.
func (c *Conn) setLimits(ls []sqliteLimit) error {
	if c.step.db.IsZero() {
		return errors.New("tetsql: safe mode: cannot reach the SQLite connection to set its limits")
	}
	for _, l := range ls {
		c.step.db.SetLimit(l.id, l.val)
	}
	return nil
}

// close forgets the connection, which is being closed: no interrupt may
// reach it any more.
func (s *stepper) close() {
	s.mu.Lock()
	s.db = sqlitevt.Handle{}
	s.mu.Unlock()
}
