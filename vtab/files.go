package vtab

import (
	"fmt"
	"os"

	"github.com/tetsql/tetsql/internal/glob"
	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// tet_files('glob') lists the files a glob matches: an eponymous-only
// table (it exists on every tetsql connection, in schema main, and is
// used as a table-valued function) with columns path, size, format,
// datasets and the HIDDEN column pattern that takes the argument. Each
// match is sniffed through the session's registry (as opening it would
// choose its format; NULL when none recognises it). A matched directory
// is listed only when a format recognises it (a Blosc2 sparse frame),
// as one file. datasets opens the file through the registry and closes
// it again, so it is computed only when the column is asked for; a file
// that fails to open (damaged, unsupported) gets NULL datasets rather
// than failing the listing. Safe mode refuses the table: it reads the
// filesystem.

// FilesName is the name of the file listing table-valued function.
const FilesName = "tet_files"

// MaxFiles bounds the matches of one tet_files pattern.
const MaxFiles = 100_000

// Column indexes of tet_files.
const (
	filesPath = iota
	filesSize
	filesFormat
	filesDatasets
	filesPattern
)

// idxNum bits of a tet_files plan.
const (
	filesHasPattern = 1 << iota // Filter gets the pattern
	filesWantCount              // the datasets column is read
)

// filesModule is the tet_files module of one connection.
type filesModule struct{ conn *connState }

// Create implements sqlitevt.Module; SQLite never calls it for an
// eponymous-only module.
func (m *filesModule) Create(ctx sqlitevt.Context, args []string) (sqlitevt.Table, error) {
	return nil, fmt.Errorf("tet: %s is used as a table-valued function, not created", FilesName)
}

// Connect implements sqlitevt.Module.
func (m *filesModule) Connect(ctx sqlitevt.Context, args []string) (sqlitevt.Table, error) {
	panicPoint("xConnect")
	if err := ctx.Declare("CREATE TABLE x(path TEXT, size INTEGER, format TEXT, datasets INTEGER, pattern HIDDEN)"); err != nil {
		return nil, err
	}
	var s *Session
	if m.conn != nil {
		s = m.conn.session
	}
	return &filesTable{sess: s}, nil
}

// Panicked implements sqlitevt.PanicHandler.
func (m *filesModule) Panicked(where string, p any) error { return internalError(FilesName, where, p) }

// filesTable is the one tet_files table of a connection.
type filesTable struct{ sess *Session }

// BestIndex takes the pattern from an equality on the hidden column; a
// plan without one is priced out (and fails in Filter if chosen).
func (t *filesTable) BestIndex(info *sqlitevt.IndexInfo) error {
	if t.sess != nil && t.sess.FilesRefused != nil {
		if err := t.sess.FilesRefused(); err != nil {
			return err
		}
	}
	info.EstimatedCost = 1e18
	for i := range info.Constraints {
		c := &info.Constraints[i]
		if c.Column == filesPattern && c.Op == sqlitevt.OpEQ && c.Usable {
			c.ArgIndex, c.Omit = 0, true
			info.IdxNum |= filesHasPattern
			info.EstimatedCost, info.EstimatedRows = 1000, 100
			break
		}
	}
	if info.ColUsed&(1<<filesDatasets) != 0 {
		info.IdxNum |= filesWantCount
	}
	return nil
}

// Open implements sqlitevt.Table.
func (t *filesTable) Open() (sqlitevt.Cursor, error) { return &filesCursor{t: t}, nil }

// Disconnect implements sqlitevt.Table.
func (t *filesTable) Disconnect() error { return nil }

// Destroy implements sqlitevt.Table.
func (t *filesTable) Destroy() error { return nil }

// Panicked implements sqlitevt.PanicHandler.
func (t *filesTable) Panicked(where string, p any) error {
	err := internalError(FilesName, where, p)
	t.sess.setErr(err)
	return err
}

// fileRow is one listed file.
type fileRow struct {
	path     string
	size     int64
	format   string // "" for none
	datasets int64  // -1 for NULL
}

// filesCursor walks the matches of one pattern, sniffing each as it
// reaches it.
type filesCursor struct {
	t       *filesTable
	pattern string
	matches []glob.Match
	next    int // index of the next match to look at
	count   bool
	frames  map[string]bool // listed directories (format files): nothing below them is listed
	row     fileRow
	eof     bool
}

// Filter expands the pattern and moves to the first listed file.
func (c *filesCursor) Filter(idxNum int, _ string, vals []sqlitevt.Value) error {
	panicPoint("xFilter")
	c.matches, c.next, c.eof = nil, 0, false
	if idxNum&filesHasPattern == 0 || len(vals) == 0 {
		return fmt.Errorf("tet: %s needs a pattern: SELECT * FROM %s('dir/**/*.tet')", FilesName, FilesName)
	}
	pattern, ok := vals[0].(string)
	if !ok {
		return fmt.Errorf("tet: %s: the pattern must be text, not %T", FilesName, vals[0])
	}
	if c.t.sess == nil || c.t.sess.Registry == nil {
		return fmt.Errorf("tet: %s: the connection has no session to read files with (see vtab.Open)", FilesName)
	}
	ms, err := glob.ExpandStop(pattern, MaxFiles, c.t.sess.Interrupted)
	if err != nil {
		return fmt.Errorf("tet: %s: %w", FilesName, err)
	}
	c.pattern, c.matches, c.count, c.frames = pattern, ms, idxNum&filesWantCount != 0, map[string]bool{}
	return c.Next()
}

// Next moves to the next match that is listed (a directory no format
// recognises is not).
func (c *filesCursor) Next() error {
	for c.next < len(c.matches) {
		if err := c.t.sess.Interrupted(); err != nil {
			return err
		}
		m := c.matches[c.next]
		c.next++
		row, ok, err := c.look(m)
		if err != nil {
			return err
		}
		if ok {
			c.row = row
			return nil
		}
	}
	c.eof = true
	return nil
}

// look sniffs one match; ok is false for a directory of no format and
// for anything inside a listed directory (a sparse frame's chunk files;
// a directory sorts before what it holds). A file that vanished since
// the walk is an error naming it.
func (c *filesCursor) look(m glob.Match) (row fileRow, ok bool, err error) {
	for i := 0; i < len(m.Path); i++ {
		if m.Path[i] == '/' && c.frames[m.Path[:i]] {
			return row, false, nil
		}
	}
	st, err := os.Stat(m.Path)
	if err != nil {
		return row, false, fmt.Errorf("tet: %s: %w", FilesName, err)
	}
	reg := c.t.sess.Registry
	f, ferr := reg.Sniff(m.Path)
	if m.IsDir && ferr != nil {
		return row, false, nil
	}
	row = fileRow{path: m.Path, size: st.Size(), datasets: -1}
	if m.IsDir {
		row.size = dirSize(m.Path)
		c.frames[m.Path] = true
	}
	if ferr == nil {
		row.format = f.Name()
		if c.count {
			if h, err := reg.Open(m.Path); err == nil {
				row.datasets = int64(len(h.Source().Arrays()))
				if err := h.Close(); err != nil {
					return row, false, fmt.Errorf("tet: %s: close %s: %w", FilesName, m.Path, err)
				}
			}
		}
	}
	return row, true, nil
}

// dirSize is the total size of the regular files directly in dir (a
// sparse frame keeps its chunks there), -1 if it cannot be read.
func dirSize(dir string) int64 {
	es, err := os.ReadDir(dir)
	if err != nil {
		return -1
	}
	var n int64
	for _, e := range es {
		if !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// Eof implements sqlitevt.Cursor.
func (c *filesCursor) Eof() bool { return c.eof }

// Column implements sqlitevt.Cursor.
func (c *filesCursor) Column(r *sqlitevt.Result, col int) error {
	switch col {
	case filesPath:
		r.Text(c.row.path)
	case filesSize:
		if c.row.size < 0 {
			r.Null()
		} else {
			r.Int64(c.row.size)
		}
	case filesFormat:
		if c.row.format == "" {
			r.Null()
		} else {
			r.Text(c.row.format)
		}
	case filesDatasets:
		if c.row.datasets < 0 || !c.count {
			r.Null()
		} else {
			r.Int64(c.row.datasets)
		}
	default:
		r.Text(c.pattern)
	}
	return nil
}

// Rowid implements sqlitevt.Cursor: the match's position in the sorted
// list.
func (c *filesCursor) Rowid() (int64, error) { return int64(c.next), nil }

// Close implements sqlitevt.Cursor.
func (c *filesCursor) Close() error { c.matches = nil; return nil }
