package tetsql

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"reflect"
	"time"

	"github.com/tetsql/tetsql/vtab"
)

// stmt and rows wrap SQLite's statements and results so that every
// step runs under the connection's call context, statement timeout and
// row limit, and notices a file changed on disk (see Conn).
type stmt struct {
	inner driver.Stmt
	c     *Conn
	q     string
}

func (s *stmt) Close() error  { return s.inner.Close() }
func (s *stmt) NumInput() int { return s.inner.NumInput() }
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	s.c.enter(nil)
	r, err := s.inner.Exec(args) //nolint:staticcheck // required by driver.Stmt
	return r, s.c.fix(nil, s.q, err)
}
func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	s.c.enter(nil)
	r, err := s.inner.Query(args) //nolint:staticcheck // required by driver.Stmt
	if err != nil {
		return nil, s.c.fix(nil, s.q, err)
	}
	return newRows(r, s.c, nil, nil, nil), nil
}
func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	ctx, cancel := s.c.limitCtx(ctx)
	defer cancel()
	s.c.enter(ctx)
	r, err := s.inner.(driver.StmtExecContext).ExecContext(ctx, args)
	return r, s.c.fix(ctx, s.q, err)
}
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	ctx, cancel := s.c.limitCtx(ctx)
	call := s.c.enter(ctx)
	r, err := s.inner.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		err = s.c.fix(ctx, s.q, err)
		cancel()
		return nil, err
	}
	return newRows(r, s.c, ctx, call, cancel), nil
}

// rows steps SQLite's rows with the query's context entered, so that a
// long step (a scan between two matches) stops once the context is done:
// modernc interrupts only the first step, inside QueryContext.
type rows struct {
	inner     driver.Rows
	c         *Conn
	ctx       context.Context // nil for Query without a context
	call      *vtab.Call
	cancel    context.CancelFunc // ends the statement's time limit; nil if none
	watch     func() bool        // stops the interrupt of steps on ctx's end; nil if none
	n         int64              // rows returned so far
	ended     bool               // Next returned an error or io.EOF
	delivered int64              // rows handed out, for the file checks of Next
	times     []string           // per column: "" or the type its labels are delivered as (see timeColumns)
}

func (r *rows) Columns() []string { return r.inner.Columns() }
func (r *rows) Close() error {
	err := r.inner.Close()
	if r.watch != nil {
		r.watch()
	}
	if r.cancel != nil {
		r.cancel()
	}
	if err == nil && !r.ended && r.c.files != nil {
		// Closed before its end (QueryRow reads one row): the rows read
		// may still come from a file rewritten meanwhile; see Next.
		err = r.c.changedFile()
	}
	return err
}

// Next steps to the next row. Past the row limit the result fails
// (rather than being cut short silently): the caller learns the answer
// is incomplete.
func (r *rows) Next(dest []driver.Value) error {
	r.c.session.Enter(r.call)
	var err error
	if r.watch == nil {
		err = r.inner.Next(dest)
	} else if err = r.c.step.begin(r.ctx); err == nil {
		err = r.inner.Next(dest)
		r.c.step.end()
	}
	if err == nil && r.c.maxRows > 0 {
		if r.n >= r.c.maxRows {
			return &MaxRowsError{Limit: r.c.maxRows}
		}
		r.n++
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return r.c.fix(r.ctx, "", err)
	}
	if err != nil {
		r.ended = true
	}
	if err != nil && r.c.files != nil {
		// The end of a result: the scans checked their files when they
		// started, but a scan SQLite stopped early (LIMIT, EXISTS, a
		// join's inner loop) never reached its own end-of-scan check, so
		// a file rewritten in place meanwhile is caught here, before the
		// caller takes the result for complete.
		if ferr := r.c.changedFile(); ferr != nil {
			return ferr
		}
	}
	if err == nil && r.c.files != nil {
		// A row may have been computed over a scan SQLite stopped early
		// (an aggregate over a LIMIT subquery), which never reached its
		// own end-of-scan check: before handing out the first row and
		// every fileCheckRows-th after it, check the files (one stat
		// each), so that a result computed while a file was rewritten is
		// refused rather than delivered.
		if r.delivered%fileCheckRows == 0 {
			if ferr := r.c.changedFile(); ferr != nil {
				r.ended = true
				return ferr
			}
		}
		r.delivered++
	}
	if err == nil && r.times != nil {
		labelTimes(r.times, dest)
	}
	return err
}

// ColumnTypeDatabaseTypeName forwards the declared type of a column.
func (r *rows) ColumnTypeDatabaseTypeName(i int) string {
	if r.times != nil && r.times[i] != "" {
		return r.times[i]
	}
	if t, ok := r.inner.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

// ColumnTypeScanType forwards the scan type of a column.
func (r *rows) ColumnTypeScanType(i int) reflect.Type {
	if r.times != nil && r.times[i] != "" {
		return reflect.TypeFor[time.Time]()
	}
	if t, ok := r.inner.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}
