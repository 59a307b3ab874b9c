package tetsql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/vtab"
)

// defaultDriver is the driver registered as "tetsql". Its registry opens
// the files of every connection of that driver and of every Connector: a
// path is opened once and shared (one mapping, one chunk cache, one set
// of chunk statistics), whichever connections read it.
var defaultDriver = Driver{reg: scan.NewRegistry(formats)}

func init() {
	sql.Register("tetsql", defaultDriver)
}

// Driver is the database/sql driver registered as "tetsql". It owns the
// registry of open files its connections share; the zero Driver uses the
// registered driver's.
type Driver struct{ reg *scan.Registry }

// registry is the driver's registry of open files.
func (d Driver) registry() *scan.Registry {
	if d.reg == nil {
		return defaultDriver.reg
	}
	return d.reg
}

// Open opens one connection for dsn; database/sql prefers OpenConnector.
func (d Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return c.Connect(context.Background())
}

// OpenConnector parses dsn (see the package documentation).
func (d Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	c, err := NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	c.reg = d.registry()
	return c, nil
}

// Connector opens connections that all see the configured files. Use it
// with sql.OpenDB. Closing the *sql.DB closes it and releases the files.
type Connector struct {
	cfg     Config
	aliases []string
	reg     *scan.Registry // the driver's
	mu      sync.Mutex     // guards handles, found and closed
	handles []*scan.Handle // per file of cfg.Files; nil for a glob
	glob    []bool         // per file of cfg.Files: a glob (FileSpec.IsGlob)
	found   [][]string     // per glob of cfg.Files: its dataset names, once discovered (globs)
	warn    func(string)   // cfg.Warn, each distinct line once (onceWarn)
	closed  bool
}

// NewConnector validates cfg and returns a connector for sql.OpenDB.
// Files are opened on first use. An error opening one is returned by that
// connection attempt, names the file and wraps the cause (errors.Is works
// with fs.ErrNotExist or tetcore's sentinels); the next attempt tries
// again, so a file that appears later is picked up.
//
// A glob (FileSpec.IsGlob) is listed, and each file it matches opened to
// learn its dataset names, on the first connection attempt that
// succeeds in this, once for the connector: every connection then has
// the same tables, which open the files the glob matches as they scan. A
// glob matching no file fails the attempt with an error naming it
// (errors.Is fs.ErrNotExist).
func NewConnector(cfg Config) (*Connector, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	aliases, err := cfg.Aliases()
	if err != nil {
		return nil, err
	}
	globs := make([]bool, len(cfg.Files))
	for i, f := range cfg.Files {
		globs[i] = f.IsGlob()
	}
	return &Connector{cfg: cfg, aliases: aliases, glob: globs, warn: onceWarn(cfg.Warn), reg: defaultDriver.reg}, nil
}

// Driver returns the tetsql driver.
func (c *Connector) Driver() driver.Driver { return Driver{reg: c.reg} }

var errConnectorClosed = errors.New("tetsql: connector is closed")

// files opens the configured files if they are not open yet and returns
// one extra handle to each for the caller (who closes them), so that a
// concurrent Close cannot release them under a connection being set up;
// nil for a glob, whose datasets it discovers once (globs) and returns
// per file of cfg.Files (nil for a file).
func (c *Connector) files(ctx context.Context) ([]*scan.Handle, [][]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil, errConnectorClosed
	}
	if c.handles == nil {
		hs := make([]*scan.Handle, 0, len(c.cfg.Files))
		for i, f := range c.cfg.Files {
			if c.glob[i] {
				hs = append(hs, nil)
				continue
			}
			h, err := c.reg.Open(f.Path)
			if err != nil {
				closeHandles(hs)
				return nil, nil, fmt.Errorf("tetsql: open %s: %w", f.Path, err)
			}
			h.Source().SetCacheBudget(c.cfg.cacheBudget())
			hs = append(hs, h)
		}
		c.handles = hs
	}
	if err := c.globs(ctx); err != nil {
		return nil, nil, err
	}
	out := make([]*scan.Handle, 0, len(c.handles))
	for i, h := range c.handles {
		if h == nil {
			out = append(out, nil)
			continue
		}
		h2, err := c.reg.Open(h.Path()) // shares the open file
		if err != nil {
			closeHandles(out)
			return nil, nil, fmt.Errorf("tetsql: open %s: %w", h.Path(), err)
		}
		if h2.Source() != h.Source() {
			// The file changed on disk and was opened again: the
			// connector keeps the new source, not the stale one.
			h3, err := c.reg.Open(h.Path())
			if err == nil && h3.Source() == h2.Source() {
				h3.Source().SetCacheBudget(c.cfg.cacheBudget())
				c.handles[i] = h3
				h.Close()
			} else if err == nil {
				h3.Close()
			}
		}
		out = append(out, h2)
	}
	return out, c.found, nil
}

func closeHandles(hs []*scan.Handle) {
	for _, h := range hs {
		if h != nil {
			h.Close()
		}
	}
}

// Close releases the connector's files (database/sql calls it from
// DB.Close). Connections still open keep their tables' files mapped
// until they close; later connection attempts fail.
func (c *Connector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		closeHandles(c.handles)
		c.handles = nil
	}
	return nil
}

// Connect opens one SQLite connection and attaches every file.
func (c *Connector) Connect(ctx context.Context) (driver.Conn, error) {
	handles, found, err := c.files(ctx)
	if err != nil {
		return nil, err
	}
	defer closeHandles(handles) // the tables hold their own references
	sess := vtab.NewSession(c.reg)
	// The module exists on this connection only, bound to its session.
	inner, err := vtab.Open(":memory:", sess)
	if err != nil {
		return nil, err
	}
	sess.ReadAhead, sess.DecodeParallelism = c.cfg.ReadAhead, c.cfg.DecodeParallelism
	sess.TimeLabels = c.cfg.TimeLabels
	sess.ReadAheadBytes = effective(c.cfg.ReadAheadBytes, c.cfg.Safe, SafeReadAheadBytes)
	sess.MemLimit = effective(c.cfg.MemLimit, c.cfg.Safe, SafeMemLimit)
	sess.MaxChunkBytes = c.cfg.MaxChunkBytes
	sess.ManyCacheBudget = max(c.cfg.cacheBudget(), 0) // a many-file table's kept files share one file's budget
	sess.Warn = c.warn
	conn := &Conn{inner: inner, session: sess, step: newStepper(inner),
		timeout: effective(c.cfg.StatementTimeout, c.cfg.Safe, SafeStatementTimeout),
		maxRows: effective(c.cfg.MaxRows, c.cfg.Safe, SafeMaxRows), noRewrite: c.cfg.NoAggRewrite,
		onErrorSkip: c.cfg.OnErrorSkip}
	for i, h := range handles {
		var stmts []string
		if h == nil { // a glob: one schema over every file it matches
			stmts = vtab.ManySetupSQL(c.aliases[i], c.cfg.Files[i].Path, found[i], c.cfg.OnErrorSkip)
		} else {
			conn.files = append(conn.files, h.Source())
			stmts = vtab.SetupSQL(c.aliases[i], h.Path(), h.Source(), conn.session)
		}
		if err := conn.setup(ctx, c.aliases[i], c.cfg.Files[i].Path, stmts); err != nil {
			conn.Close()
			return nil, err
		}
		conn.attached++
	}
	// Safe mode starts once the connection's own setup is done; outside
	// it, PRAGMA writes are watched (reset.go).
	install := conn.watchPragmas
	if c.cfg.Safe {
		install = conn.installGuard
	}
	if err := install(); err != nil {
		conn.Close()
		return nil, err
	}
	// The snapshot comes last: ResetSession compares the connection with
	// it, safe mode's SQLite limits included.
	if err := conn.takeSnapshot(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}
