package tetsql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/vtab"
)

// Conn is one tetsql connection: a SQLite connection with the files
// attached. Reach it through (*sql.Conn).Raw to read scan statistics.
type Conn struct {
	inner   driver.Conn
	session *vtab.Session
	files   []*scan.Source // attached files, to notice one changed on disk
	// attached counts the schemas the driver attached (files and globs):
	// safe mode allows no more.
	attached    int
	onErrorSkip bool // a glob's unreadable files are skipped with a warning (on_error=skip)

	guard     *guard        // safe mode's authorizer state; nil outside safe mode (safe.go)
	step      *stepper      // interrupts SQLite when a statement's context ends (limits.go)
	timeout   time.Duration // statement time limit; 0 = none
	maxRows   int64         // most rows a result may have; 0 = any
	snap      *snapshot     // the state ResetSession restores (reset.go)
	pragmaSet *atomic.Bool  // a PRAGMA was given a value since the snapshot (reset.go); nil in safe mode
	noRewrite bool          // aggregate queries run as written, never on an _agg companion (route.go)
	routes    *routeCache   // the rewrites of recent statements (route.go)
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
// interrupt, a cursor's check, database/sql) noticed first; past the
// statement time limit that is a *TimeLimitError (the context's cause).
// A statement safe mode refused fails with a *NotAllowedError.
func (c *Conn) fix(ctx context.Context, q string, err error) error {
	if err == nil {
		return nil
	}
	serr := c.session.TakeError()
	if nerr := c.notAllowed(q); nerr != nil {
		return nerr
	}
	if ctx != nil && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if serr != nil {
		return serr
	}
	return err
}

// enter starts a driver call: the session's cursors watch ctx.
func (c *Conn) enter(ctx context.Context) *vtab.Call {
	c.session.TakeError()
	if c.guard != nil {
		c.guard.take()
	}
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
	if err := c.precheck(q); err != nil {
		return nil, err
	}
	if c.guard != nil {
		c.guard.take()
	}
	s, err := c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, c.routed(ctx, q))
	if err != nil {
		return nil, c.fix(ctx, q, err)
	}
	return &stmt{inner: s, c: c, q: q}, nil
}

// ExecContext implements driver.ExecerContext.
func (c *Conn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	if err := c.precheck(q); err != nil {
		return nil, err
	}
	ctx, cancel := c.limitCtx(ctx)
	defer cancel()
	c.enter(ctx)
	r, err := c.inner.(driver.ExecerContext).ExecContext(ctx, q, args)
	return r, c.fix(ctx, q, err)
}

// QueryContext implements driver.QueryerContext. The query's context
// governs the whole iteration of its rows: once it is done, the scan
// stops (within a few thousand rows or one chunk) and Next fails with
// the context's error.
func (c *Conn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	if err := c.precheck(q); err != nil {
		return nil, err
	}
	ctx, cancel := c.limitCtx(ctx)
	call := c.enter(ctx)
	r, err := c.inner.(driver.QueryerContext).QueryContext(ctx, c.routed(ctx, q), args)
	if err != nil {
		err = c.fix(ctx, q, err)
		cancel()
		return nil, err
	}
	return newRows(r, c, ctx, call, cancel), nil
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
// statement found a file changed on disk, or that its user changed (see
// ResetSession), is not put back in the pool. Found only when the
// connection is next taken, a changed connection would make database/sql
// retry: with a pool full of them, three retries fail with ErrBadConn.
func (c *Conn) IsValid() bool {
	if c.session.FileChanged() || c.changedCheaply() {
		return false
	}
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// fileCheckRows is how many rows a result hands out between two checks
// of its files (Next): a stat costs about a microsecond, so a few per
// thousand rows, and none on a row's own path.
const fileCheckRows = 1024

// changedFile returns the error of the first attached file that changed
// on disk since it was mapped (tetcore.ErrChanged), or nil.
func (c *Conn) changedFile() error {
	for _, f := range c.files {
		if err := f.CheckUnchanged(); err != nil {
			return fmt.Errorf("tetsql: %w", err)
		}
	}
	return nil
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
	if c.step != nil {
		c.step.close() // before the handle goes: no interrupt may reach it
	}
	return c.inner.Close()
}

// Attach attaches the file at path as schema alias on this connection
// only (the shell's .open). alias "" derives one from the file name. A
// glob (see FileSpec.IsGlob) attaches every file it matches as one
// schema, alias "" deriving one with GlobAlias; the connection's
// on_error setting applies.
func (c *Conn) Attach(ctx context.Context, alias, path string) error {
	if isGlob(path) {
		return c.attachGlob(ctx, alias, path)
	}
	if alias == "" {
		alias = DefaultAlias(path)
	}
	if !validAlias.MatchString(alias) {
		return fmt.Errorf("tetsql: alias %q: use letters, digits and _", alias)
	}
	h, err := c.session.Registry.Open(path)
	if err != nil {
		return fmt.Errorf("tetsql: open %s: %w", path, err)
	}
	defer h.Close() // the tables hold their own references
	// The program's own Attach is trusted in safe mode too (the shell
	// refuses .open there): its setup SQL passes the authorizer.
	err = c.trust(func() error {
		c.allowAttach()
		return c.setup(ctx, alias, path, vtab.SetupSQL(alias, h.Path(), h.Source(), c.session))
	})
	if err != nil {
		return err
	}
	c.files = append(c.files, h.Source())
	c.attached++
	if c.snap != nil {
		// The new schema is part of the connection from now on.
		return c.takeSnapshot(ctx)
	}
	return nil
}

// setup runs the statements that attach what (a file or a glob) as
// schema alias. When one fails after the ATTACH, the schema is detached
// again; when the ATTACH itself fails (the alias is taken), the schema
// is someone else's and stays.
func (c *Conn) setup(ctx context.Context, alias, what string, stmts []string) error {
	attached := false
	for _, stmt := range stmts {
		if _, err := c.exec(ctx, stmt); err != nil {
			if strings.Contains(stmt, " USING "+vtab.ManyModuleName+"(") && strings.Contains(err.Error(), "holds dataset") {
				// The files a glob's datasets were found in changed since:
				// the connection goes on without this dataset's table.
				c.warnf("%s: %v", what, err)
				continue
			}
			if attached {
				c.exec(context.Background(), "DETACH DATABASE "+alias)
			}
			return fmt.Errorf("tetsql: attach %s as %s: %w", what, alias, err)
		}
		attached = attached || strings.HasPrefix(stmt, "ATTACH ")
	}
	return nil
}

// warnf reports a warning line through the session (vtab.Session.Warning).
func (c *Conn) warnf(format string, args ...any) {
	c.session.Warning(fmt.Sprintf(format, args...))
}
