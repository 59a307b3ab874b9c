package vtab

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync"

	// The database/sql driver "sqlite" that sqliteDriver opens through.
	_ "modernc.org/sqlite"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// Open opens a modernc.org/sqlite connection to name (a modernc DSN, such
// as ":memory:") with the "tet" module and tet_last_scan() on that
// connection only; every tet table created on it belongs to session s
// (nil: none). Other modernc.org/sqlite connections of the process, a
// program's own sql.Open("sqlite", …) among them, never see the module.
func Open(name string, s *Session) (driver.Conn, error) {
	c, err := sqliteDriver().Open(name)
	if err != nil {
		return nil, err
	}
	h, err := sqlitevt.HandleOf(c)
	if err == nil {
		err = bind(h, s)
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
