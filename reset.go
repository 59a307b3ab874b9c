package tetsql

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	sqlite "modernc.org/sqlite"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// A pooled connection passes from one user to the next. Whatever a user
// changed on it (a temp view named like a table, a DETACH of a file's
// schema, a schema of its own, a PRAGMA that changes answers or row
// order, an open transaction) must not reach the next user. Rather than
// undo each change, ResetSession compares the connection with a snapshot
// taken when it was set up and reports driver.ErrBadConn when anything
// differs: database/sql then closes it and the next user gets a fresh
// connection, set up from scratch. The comparison reads SQLite's
// connection object (sqlitevt.Handle.State: the PRAGMA settings, the
// schemas with their schema cookies and object counts, the transaction)
// and runs one prepared probe, so a connection left as it was costs a few
// microseconds per reuse (see BenchmarkResetSession). Tet tables
// connected or dropped (a DETACH, even followed by an ATTACH of a
// look-alike) show in the session's TableEvents.

// snapshot is a connection's state as set up.
type snapshot struct {
	state  sqlitevt.ConnState // PRAGMAs, schemas, transaction (see sqlitevt.Handle.State)
	like   bool               // 'a' LIKE 'A': PRAGMA case_sensitive_like has no reader
	tables uint64             // the session's TableEvents
	probe  driver.Stmt        // SELECT 'a' LIKE 'A', kept prepared
}

func (s *snapshot) close() {
	if s != nil {
		s.probe.Close()
	}
}

// watchPragmas installs, outside safe mode, an authorizer that allows
// everything and notes every PRAGMA given a value. Several settings live
// where ConnState cannot see them (the pagers' max_page_count,
// journal_size_limit, secure_delete, journal_mode; user_version and
// application_id in the schemas' headers, a channel from one caller to
// the next), and reading them all back with PRAGMAs on every reuse costs
// tens of microseconds; a PRAGMA write seen while compiling is cheap to
// note, and such a connection is replaced. (Safe mode's own authorizer
// refuses those PRAGMAs instead.)
func (c *Conn) watchPragmas() error {
	reg, ok := c.inner.(sqlite.AuthorizerRegisterer)
	if !ok {
		return errors.New("tetsql: the SQLite driver has no authorizer")
	}
	c.pragmaSet = new(atomic.Bool)
	flag := c.pragmaSet
	return reg.RegisterAuthorizer(func(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
		if action == sqlite.AuthPragma && arg2 != "" && !objectPragmas[strings.ToLower(arg1)] {
			flag.Store(true)
		}
		return sqlite.AuthorizerOK
	})
}

// likeProbe is true unless PRAGMA case_sensitive_like is on; SQLite
// keeps that setting in the LIKE function itself, where nothing reads it.
const likeProbe = "SELECT 'a' LIKE 'A'"

func runProbe(ctx context.Context, st driver.Stmt) (bool, error) {
	r, err := st.(driver.StmtQueryContext).QueryContext(ctx, nil)
	if err != nil {
		return false, err
	}
	defer r.Close()
	row := make([]driver.Value, 1)
	if err := r.Next(row); err != nil {
		return false, err
	}
	return row[0] == int64(1), nil
}

// takeSnapshot records the connection's state as it is now: after setup,
// and after each Attach (the shell's .open adds a schema legitimately).
func (c *Conn) takeSnapshot(ctx context.Context) error {
	// Prepared once: parsing it would cost more than running it.
	probe, err := c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, likeProbe)
	if err != nil {
		return fmt.Errorf("tetsql: snapshot: %w", err)
	}
	like, err := runProbe(ctx, probe)
	var state sqlitevt.ConnState
	if err == nil {
		state, err = connState(c.inner)
	}
	if err != nil {
		probe.Close()
		return fmt.Errorf("tetsql: snapshot: %w", err)
	}
	c.snap.close()
	c.snap = &snapshot{state: state, like: like, tables: c.session.TableEvents(), probe: probe}
	if c.pragmaSet != nil {
		c.pragmaSet.Store(false)
	}
	return nil
}

// changed reports whether the connection differs from its snapshot; an
// error reading it counts as a change.
func (c *Conn) changed() bool {
	if c.changedCheaply() {
		return true
	}
	if c.snap == nil {
		return false
	}
	// Not under ctx: a caller's context already done must not make a
	// sound connection look changed (and be thrown away).
	like, err := runProbe(context.Background(), c.snap.probe)
	return err != nil || like != c.snap.like
}

// changedCheaply is changed without the LIKE probe (a statement): what
// IsValid checks each time a connection goes back to the pool.
func (c *Conn) changedCheaply() bool {
	if c.snap == nil {
		return false
	}
	if c.session.TableEvents() != c.snap.tables || c.pragmaSet != nil && c.pragmaSet.Load() {
		return true
	}
	state, err := connState(c.inner)
	return err != nil || state != c.snap.state
}

// connState reads the state of inner, a connection nobody is using.
func connState(inner driver.Conn) (sqlitevt.ConnState, error) {
	h, err := sqlitevt.HandleOf(inner)
	if err != nil {
		return sqlitevt.ConnState{}, err
	}
	return h.State(), nil
}
