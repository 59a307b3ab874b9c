package vtab

import (
	"sync"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// The tables are put in front of SQLite by internal/sqlitevt: [Open]
// registers the "tet" module and tet_last_scan() on each connection it
// opens, with a connState that carries the connection's session. A
// table created on a connection therefore always belongs to that
// connection's session, whatever its arguments say. Nothing is
// registered process-wide: a program's own modernc.org/sqlite
// connections never see the module.

// ModuleName is the name the module is registered under.
const ModuleName = "tet"

// connState is what the binding keeps per SQLite connection: the
// session its tables belong to, and the last scan finished on it, for
// tet_last_scan().
type connState struct {
	session *Session // fixed when the connection is bound
	mu      sync.Mutex
	epoch   uint64 // the session's Forget count when last was recorded
	last    ScanStats
	any     bool
}

// bind creates the module and tet_last_scan() on the connection h, which
// the caller has just opened and nobody else uses yet; its tables belong
// to session s (nil: none).
func bind(h sqlitevt.Handle, s *Session) error {
	cs := &connState{session: s}
	if err := h.CreateModule(ModuleName, &module{conn: cs}); err != nil {
		return err
	}
	if err := h.CreateModule(ManyModuleName, &manyModule{conn: cs}); err != nil {
		return err
	}
	if err := h.CreateEponymousModule(FilesName, &filesModule{conn: cs}); err != nil {
		return err
	}
	return h.CreateFunction("tet_last_scan", 0, cs.lastScan)
}

// record keeps st as the connection's last scan (cs may be nil: a table
// made outside a connection, in tests).
func (cs *connState) record(st ScanStats) {
	if cs == nil {
		return
	}
	cs.mu.Lock()
	cs.last, cs.any = st, true
	cs.epoch = cs.session.forgotten()
	cs.mu.Unlock()
}

// lastScan is tet_last_scan(): the JSON counters of the latest scan
// finished on this connection, NULL before any (or after the session's
// Forget).
func (cs *connState) lastScan(r *sqlitevt.Result, _ []sqlitevt.Value) (err error) {
	defer recoverInto("tet_last_scan", &err)
	panicPoint("tet_last_scan")
	cs.mu.Lock()
	st, ok := cs.last, cs.any && cs.epoch == cs.session.forgotten()
	cs.mu.Unlock()
	if !ok {
		r.Null()
		return nil
	}
	r.Text(st.JSON())
	return nil
}

// module is the "tet" module of one connection.
type module struct{ conn *connState }

// Create implements sqlitevt.Module; a tet table owns no storage, so
// creating it is connecting to it.
func (m *module) Create(ctx sqlitevt.Context, args []string) (sqlitevt.Table, error) {
	panicPoint("xCreate")
	return connect(ctx, args, m.conn)
}

// Connect implements sqlitevt.Module.
func (m *module) Connect(ctx sqlitevt.Context, args []string) (sqlitevt.Table, error) {
	panicPoint("xConnect")
	return connect(ctx, args, m.conn)
}

// Panicked implements sqlitevt.PanicHandler for xCreate and xConnect.
func (m *module) Panicked(where string, p any) error { return internalError("", where, p) }

// recoverInto makes a panic *err (deferred).
func recoverInto(where string, err *error) {
	if p := recover(); p != nil {
		*err = internalError("", where, p)
	}
}

// isBinary reports whether constraint c compares under the BINARY
// collation. Label and dataset-name pushdown compares bytes, so it may
// use only those; a comparison under another collation
// (`= 'abc' COLLATE NOCASE`) is left to SQLite. Numbers (dims, rowid,
// value) never compare under a collation.
func isBinary(c *sqlitevt.Constraint) bool { return c.Collation == "BINARY" }

// record stores a finished scan's statistics on the table's session and
// connection.
func (t *arrayTable) record(st ScanStats) {
	if t.quiet {
		return
	}
	t.session.engine().Record(st)
	t.conn.record(st)
}

// release is Disconnect and Destroy of cells and aggregate tables: it
// releases the table's file handle (never touching the file).
func (t *arrayTable) release() error {
	panicPoint("xDisconnect")
	t.session.tableEvent()
	return t.h.Close()
}

// Panicked implements sqlitevt.PanicHandler: a panic in a callback of the
// table or its cursors becomes an *InternalError, also kept on the
// session for the driver.
func (t *arrayTable) Panicked(where string, p any) error {
	err := internalError("", where, p)
	t.session.setErr(err)
	return err
}

// BoundObjects reports how many modules, functions, tables and cursors
// the binding holds; tests use it to check that closing a database frees
// them.
func BoundObjects() int { return sqlitevt.Live() }
