package vtab

import (
	"sync"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// connState is what the direct binding keeps per SQLite connection: the
// session its tables belong to, and the last scan finished on it, for
// tet_last_scan(). Its id is the pAux of the connection's module and the
// user data of its tet_last_scan().
type connState struct {
	id      uintptr
	session *Session // fixed when the connection is bound
	epoch   uint64   // the session's Forget count when last was recorded
	mu      sync.Mutex
	last    ScanStats
	any     bool
}

var conns = struct {
	sync.Mutex
	next uintptr
	m    map[uintptr]*connState
}{m: map[uintptr]*connState{}}

func newConnState(s *Session) *connState {
	conns.Lock()
	defer conns.Unlock()
	conns.next++
	cs := &connState{id: conns.next, session: s}
	conns.m[cs.id] = cs
	return cs
}

func lookupConn(id uintptr) *connState {
	conns.Lock()
	defer conns.Unlock()
	return conns.m[id]
}

// connCount reports how many connections the binding tracks (for tests).
func connCount() int {
	conns.Lock()
	defer conns.Unlock()
	return len(conns.m)
}

// connDestroy is the module's destructor: SQLite runs it when the
// connection closes (or when registering the module failed).
func connDestroy(tls *libc.TLS, pAux uintptr) {
	conns.Lock()
	delete(conns.m, pAux)
	conns.Unlock()
}

func (cs *connState) record(st ScanStats) {
	cs.mu.Lock()
	cs.last, cs.any = st, true
	cs.epoch = cs.session.forgotten()
	cs.mu.Unlock()
}

// lastScanFunc is tet_last_scan(): the JSON counters of the latest scan
// finished on this connection, NULL before any.
func lastScanFunc(tls *libc.TLS, ctx uintptr, argc int32, argv uintptr) {
	cs := lookupConn(lib.Xsqlite3_user_data(tls, ctx))
	if cs == nil {
		lib.Xsqlite3_result_null(tls, ctx)
		return
	}
	cs.mu.Lock()
	st, ok := cs.last, cs.any && cs.epoch == cs.session.forgotten()
	cs.mu.Unlock()
	if !ok {
		lib.Xsqlite3_result_null(tls, ctx)
		return
	}
	js := st.JSON()
	z := cString(tls, js)
	if z == 0 {
		lib.Xsqlite3_result_error_nomem(tls, ctx)
		return
	}
	lib.Xsqlite3_result_text(tls, ctx, z, int32(len(js)), lib.SQLITE_TRANSIENT)
	lib.Xsqlite3_free(tls, z)
}
