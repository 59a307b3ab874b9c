package vtab

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"
)

// Open opens a modernc.org/sqlite connection to name (a modernc DSN, such
// as ":memory:") with the "tet" module and tet_last_scan() on that
// connection only; every tet table created on it belongs to session s
// (nil: none). Other modernc.org/sqlite connections of the process, a
// program's own sql.Open("sqlite", …) among them, never see the module.
//
// With the direct binding the module is bound to the connection's sqlite3
// handle. The fallback binding (TETSQL_VTAB=modernc) cannot reach the
// handle; it opens the connection through a private modernc Driver per
// session instead, which carries only the module and tet_last_scan()
// (not functions a program registered on modernc's package-level driver).
func Open(name string, s *Session) (driver.Conn, error) {
	if err := Register(); err != nil {
		return nil, err
	}
	if ActiveBinding() == BindingModernc {
		return openFallback(name, s)
	}
	c, err := sqliteDriver().Open(name)
	if err != nil {
		return nil, err
	}
	db, err := handleOf(c)
	if err == nil {
		err = bindDirect(db, s)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Connector opens connections with [Open], for sql.OpenDB: a library or
// a test that wants tet tables on its own SQLite connections.
type Connector struct {
	Name    string   // modernc DSN, e.g. ":memory:"
	Session *Session // the session of every connection's tables (nil: none)
}

// Connect implements driver.Connector.
func (c Connector) Connect(ctx context.Context) (driver.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return Open(c.Name, c.Session)
}

// Driver implements driver.Connector.
func (c Connector) Driver() driver.Driver { return openDriver{} }

// openDriver opens connections with Open, without a session.
type openDriver struct{}

func (openDriver) Open(name string) (driver.Conn, error) { return Open(name, nil) }

var (
	innerOnce   sync.Once
	innerDriver driver.Driver
)

// sqliteDriver returns modernc's registered driver, which carries the
// package-level functions and collations a program may have registered.
func sqliteDriver() driver.Driver {
	innerOnce.Do(func() {
		db, _ := sql.Open("sqlite", "")
		innerDriver = db.Driver()
		db.Close()
	})
	return innerDriver
}

// ConnHandle returns the sqlite3* handle of a connection modernc opened, for
// the few calls database/sql has no way to make (sqlite3_interrupt
// between the steps of a statement); see handleOf.
func ConnHandle(c driver.Conn) (uintptr, error) { return handleOf(c) }

// handleOf returns the sqlite3* handle of a connection modernc opened.
// modernc does not export it; its connection keeps it in the uintptr field
// "db", which reflection may read (not write). A modernc release that
// renames the field makes every Open fail with this error, which the
// tests catch, rather than binding anything wrong.
func handleOf(c driver.Conn) (uintptr, error) {
	v := reflect.ValueOf(c)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		if f := v.FieldByName("db"); f.IsValid() && f.Kind() == reflect.Uintptr && f.Uint() != 0 {
			return uintptr(f.Uint()), nil
		}
	}
	return 0, fmt.Errorf("tet: cannot find the sqlite3 handle of a %T connection", c)
}

// fallbackDriver is a private modernc Driver with the module and
// tet_last_scan() registered on it alone (modernc keeps a module
// registered on a Driver for the life of the process, so drivers are
// reused, one per live session, rather than made per connection).
type fallbackDriver struct {
	d       *sqlite.Driver
	session atomic.Pointer[Session]
}

var fallbacks struct {
	sync.Mutex
	free []*fallbackDriver
	none *fallbackDriver // for connections without a session
}

func (fd *fallbackDriver) current() *Session {
	if fd == nil {
		return nil
	}
	return fd.session.Load()
}

func newFallbackDriver() (*fallbackDriver, error) {
	fd := &fallbackDriver{d: &sqlite.Driver{}}
	if err := fd.d.RegisterModule(ModuleName, safeModule{module{fd}}); err != nil {
		return nil, err
	}
	if err := fd.d.RegisterScalarFunction("tet_last_scan", 0, fd.lastScan); err != nil {
		return nil, err
	}
	return fd, nil
}

// lastScan is tet_last_scan() of the fallback binding: the last scan of
// the driver's session (NULL without a session or before any scan).
func (fd *fallbackDriver) lastScan(*sqlite.FunctionContext, []driver.Value) (v driver.Value, err error) {
	defer recoverInto("tet_last_scan", &err)
	panicPoint("tet_last_scan")
	s := fd.current()
	if s == nil {
		return nil, nil
	}
	st, ok := s.LastScan()
	if !ok {
		return nil, nil
	}
	return st.JSON(), nil
}

// openFallback opens name through the fallback driver of session s.
func openFallback(name string, s *Session) (driver.Conn, error) {
	fd, err := fallbackFor(s)
	if err != nil {
		return nil, err
	}
	return fd.d.Open(name)
}

func fallbackFor(s *Session) (*fallbackDriver, error) {
	fallbacks.Lock()
	defer fallbacks.Unlock()
	if s == nil {
		if fallbacks.none == nil {
			fd, err := newFallbackDriver()
			if err != nil {
				return nil, err
			}
			fallbacks.none = fd
		}
		return fallbacks.none, nil
	}
	if s.fallback != nil {
		return s.fallback, nil
	}
	var fd *fallbackDriver
	if n := len(fallbacks.free); n > 0 {
		fd, fallbacks.free = fallbacks.free[n-1], fallbacks.free[:n-1]
	} else {
		var err error
		if fd, err = newFallbackDriver(); err != nil {
			return nil, err
		}
	}
	fd.session.Store(s)
	s.fallback = fd
	return fd, nil
}

// releaseFallback returns the fallback driver of s, whose connections
// are all closed, for another session to use.
func releaseFallback(s *Session) {
	fallbacks.Lock()
	defer fallbacks.Unlock()
	if fd := s.fallback; fd != nil {
		s.fallback = nil
		fd.session.Store(nil)
		fallbacks.free = append(fallbacks.free, fd)
	}
}
