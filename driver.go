package tetsql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver wrapped here

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

func init() {
	sql.Register("tetsql", Driver{})
}

// Driver is the database/sql driver registered as "tetsql".
type Driver struct{}

// Open opens one connection for dsn; database/sql prefers OpenConnector.
func (d Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return c.Connect(context.Background())
}

// OpenConnector parses dsn (see the package documentation).
func (Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return NewConnector(cfg)
}

// Connector opens connections that all see the configured files. Use it
// with sql.OpenDB. Closing the *sql.DB closes it and releases the files.
type Connector struct {
	cfg     Config
	aliases []string
	once    sync.Once
	handles []*vtab.Handle
	openErr error
	closed  bool
	mu      sync.Mutex
}

// NewConnector validates cfg and returns a connector for sql.OpenDB.
// Files are opened on first use; an error opening one is returned by
// every connection attempt and names the file.
func NewConnector(cfg Config) (*Connector, error) {
	if cfg.MaxChunkBytes < 0 {
		return nil, fmt.Errorf("tetsql: MaxChunkBytes %d is negative", cfg.MaxChunkBytes)
	}
	aliases, err := cfg.Aliases()
	if err != nil {
		return nil, err
	}
	if err := vtab.Register(); err != nil {
		return nil, err
	}
	return &Connector{cfg: cfg, aliases: aliases}, nil
}

// Driver returns the tetsql driver.
func (c *Connector) Driver() driver.Driver { return Driver{} }

func (c *Connector) openFiles() error {
	c.once.Do(func() {
		var opts []tetcore.Option
		if c.cfg.MaxChunkBytes > 0 {
			opts = append(opts, tetcore.WithMaxChunkBytes(c.cfg.MaxChunkBytes))
		}
		for _, f := range c.cfg.Files {
			h, err := vtab.OpenFile(f.Path, opts...)
			if err != nil {
				c.openErr = fmt.Errorf("tetsql: open %s: %w", f.Path, err)
				c.releaseFiles()
				return
			}
			c.handles = append(c.handles, h)
		}
	})
	return c.openErr
}

func (c *Connector) releaseFiles() {
	for _, h := range c.handles {
		h.Close()
	}
	c.handles = nil
}

// Close releases the connector's files (database/sql calls it from
// DB.Close). Connections still open keep their tables' files mapped
// until they close.
func (c *Connector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		c.once.Do(func() {}) // no later open
		c.releaseFiles()
	}
	return nil
}

var (
	innerOnce   sync.Once
	innerDriver driver.Driver
)

// sqliteDriver returns modernc's registered driver, which carries the
// package-level functions and modules.
func sqliteDriver() driver.Driver {
	innerOnce.Do(func() {
		db, _ := sql.Open("sqlite", "")
		innerDriver = db.Driver()
		db.Close()
	})
	return innerDriver
}

// Connect opens one SQLite connection and attaches every file.
func (c *Connector) Connect(ctx context.Context) (driver.Conn, error) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, errors.New("tetsql: connector is closed")
	}
	if err := c.openFiles(); err != nil {
		return nil, err
	}
	inner, err := sqliteDriver().Open(":memory:")
	if err != nil {
		return nil, err
	}
	conn := &Conn{inner: inner, session: vtab.NewSession()}
	for i, h := range c.handles {
		path := h.Path()
		for _, stmt := range vtab.SetupSQL(c.aliases[i], path, h.File, conn.session) {
			if _, err := conn.exec(ctx, stmt); err != nil {
				conn.Close()
				return nil, fmt.Errorf("tetsql: attach %s as %s: %w", c.cfg.Files[i].Path, c.aliases[i], err)
			}
		}
	}
	return conn, nil
}
