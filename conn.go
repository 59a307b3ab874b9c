package tetsql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// Conn is one tetsql connection: a SQLite connection with the files
// attached. Reach it through (*sql.Conn).Raw to read scan statistics.
type Conn struct {
	inner   driver.Conn
	session *vtab.Session
	files   []*tetcore.File  // attached files, to notice one changed on disk
	opts    []tetcore.Option // how Attach opens files (max_chunk_bytes)
	snap    *snapshot        // the state ResetSession restores (reset.go)
}

// Scans returns the statistics of the cells scans finished on this
// connection since the previous call, and forgets them.
func (c *Conn) Scans() []vtab.ScanStats { return c.session.TakeScans() }

// LastScan returns the most recent finished scan on this connection.
func (c *Conn) LastScan() (vtab.ScanStats, bool) { return c.session.LastScan() }

// ScanStats is the counters of one cells-table scan.
type ScanStats = vtab.ScanStats

// Scans returns the scans recorded on conn since the last call; conn must
// be a connection of a tetsql database.
func Scans(ctx context.Context, conn *sql.Conn) ([]ScanStats, error) {
	var out []ScanStats
	err := conn.Raw(func(dc any) error {
		c, ok := dc.(*Conn)
		if !ok {
			return errors.New("tetsql: not a tetsql connection")
		}
		out = c.Scans()
		return nil
	})
	return out, err
}

// fix replaces SQLite's message-less error from a failed chunk read with
// the read error the cursor recorded (which names dataset and chunk), and
// any error once ctx is done with ctx's error: a canceled scan fails with
// context.Canceled or context.DeadlineExceeded, whichever layer (SQLite's
// interrupt, a cursor's check, database/sql) noticed first.
func (c *Conn) fix(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	serr := c.session.TakeError()
	if ctx != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	if serr != nil {
		return serr
	}
	return err
}

// enter starts a driver call: the session's cursors watch ctx.
func (c *Conn) enter(ctx context.Context) *vtab.Call {
	c.session.TakeError()
	call := vtab.NewCall(ctx)
	c.session.Enter(call)
	return call
}

func (c *Conn) exec(ctx context.Context, q string) (driver.Result, error) {
	return c.inner.(driver.ExecerContext).ExecContext(ctx, q, nil)
}

// Prepare implements driver.Conn.
func (c *Conn) Prepare(q string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), q)
}

// PrepareContext implements driver.ConnPrepareContext.
func (c *Conn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	s, err := c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, q)
	if err != nil {
		return nil, c.fix(ctx, err)
	}
	return &stmt{inner: s, c: c}, nil
}

// ExecContext implements driver.ExecerContext.
func (c *Conn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	c.enter(ctx)
	r, err := c.inner.(driver.ExecerContext).ExecContext(ctx, q, args)
	return r, c.fix(ctx, err)
}

// QueryContext implements driver.QueryerContext. The query's context
// governs the whole iteration of its rows: once it is done, the scan
// stops (within a few thousand rows or one chunk) and Next fails with
// the context's error.
func (c *Conn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	call := c.enter(ctx)
	r, err := c.inner.(driver.QueryerContext).QueryContext(ctx, q, args)
	if err != nil {
		return nil, c.fix(ctx, err)
	}
	return newRows(r, c, ctx, call), nil
}

// Begin implements driver.Conn.
func (c *Conn) Begin() (driver.Tx, error) { return c.BeginTx(context.Background(), driver.TxOptions{}) }

// BeginTx implements driver.ConnBeginTx.
func (c *Conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

// Ping implements driver.Pinger.
func (c *Conn) Ping(ctx context.Context) error { return c.inner.(driver.Pinger).Ping(ctx) }

// ResetSession implements driver.SessionResetter. A connection whose
// file changed on disk since it was attached reports driver.ErrBadConn:
// database/sql then runs the statement on a new connection, which maps
// the file again, instead of failing with "file changed on disk". So
// does a connection its previous user changed (a temp object, a schema
// detached or attached, a PRAGMA, an open transaction; see reset.go), so
// that the change never reaches the next user.
func (c *Conn) ResetSession(ctx context.Context) error {
	if c.stale() || c.changed() {
		return driver.ErrBadConn
	}
	// The next user sees none of the previous user's scans (Scans,
	// tet_last_scan()).
	c.session.Forget()
	if r, ok := c.inner.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

// IsValid implements driver.Validator: a connection on which a
// statement found a file changed on disk is not reused.
func (c *Conn) IsValid() bool {
	if c.session.FileChanged() {
		return false
	}
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// stale reports whether a file attached to c changed on disk.
func (c *Conn) stale() bool {
	if c.session.FileChanged() {
		return true
	}
	for _, f := range c.files {
		if f.CheckUnchanged() != nil {
			return true
		}
	}
	return false
}

// Close closes the SQLite connection; its tables release their files.
func (c *Conn) Close() error {
	c.snap.close()
	err := c.inner.Close()
	vtab.CloseSession(c.session)
	return err
}

type stmt struct {
	inner driver.Stmt
	c     *Conn
}

func (s *stmt) Close() error  { return s.inner.Close() }
func (s *stmt) NumInput() int { return s.inner.NumInput() }
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	s.c.enter(nil)
	r, err := s.inner.Exec(args) //nolint:staticcheck // required by driver.Stmt
	return r, s.c.fix(nil, err)
}
func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	s.c.enter(nil)
	r, err := s.inner.Query(args) //nolint:staticcheck // required by driver.Stmt
	if err != nil {
		return nil, s.c.fix(nil, err)
	}
	return newRows(r, s.c, nil, nil), nil
}
func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	s.c.enter(ctx)
	r, err := s.inner.(driver.StmtExecContext).ExecContext(ctx, args)
	return r, s.c.fix(ctx, err)
}
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	call := s.c.enter(ctx)
	r, err := s.inner.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return nil, s.c.fix(ctx, err)
	}
	return newRows(r, s.c, ctx, call), nil
}

// rows steps SQLite's rows with the query's context entered, so that a
// long step (a scan between two matches) stops once the context is done:
// modernc interrupts only the first step, inside QueryContext.
type rows struct {
	inner driver.Rows
	c     *Conn
	ctx   context.Context // nil for Query without a context
	call  *vtab.Call
	times []string // per column: "" or the type its labels are delivered as (see timeColumns)
}

func (r *rows) Columns() []string { return r.inner.Columns() }
func (r *rows) Close() error      { return r.inner.Close() }
func (r *rows) Next(dest []driver.Value) error {
	r.c.session.Enter(r.call)
	err := r.inner.Next(dest)
	if err != nil && !errors.Is(err, io.EOF) {
		return r.c.fix(r.ctx, err)
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

// Attach attaches the file at path as schema alias on this connection
// only (the shell's .open). alias "" derives one from the file name.
func (c *Conn) Attach(ctx context.Context, alias, path string) error {
	if alias == "" {
		alias = DefaultAlias(path)
	}
	if !validAlias.MatchString(alias) {
		return fmt.Errorf("tetsql: alias %q: use letters, digits and _", alias)
	}
	h, err := vtab.OpenFile(path, c.opts...)
	if err != nil {
		return fmt.Errorf("tetsql: open %s: %w", path, err)
	}
	defer h.Close() // the tables hold their own references
	attached := false
	for _, stmt := range vtab.SetupSQL(alias, h.Path(), h.File, c.session) {
		if _, err := c.exec(ctx, stmt); err != nil {
			// Undo only an ATTACH of ours: when the ATTACH itself fails
			// (the alias is taken), the schema is someone else's.
			if attached {
				c.exec(context.Background(), "DETACH DATABASE "+alias)
			}
			return fmt.Errorf("tetsql: attach %s as %s: %w", path, alias, err)
		}
		attached = attached || strings.HasPrefix(stmt, "ATTACH ")
	}
	c.files = append(c.files, h.File)
	if c.snap != nil {
		// The new schema is part of the connection from now on.
		return c.takeSnapshot(ctx)
	}
	return nil
}
