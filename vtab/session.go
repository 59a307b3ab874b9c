package vtab

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/tetsql/tetsql/internal/scan"
)

// Session groups the tables of one SQLite connection: the engine's
// per-connection state (scan.Session: settings, scan statistics, call
// context, last error, memory limit, and the registry its tables open
// files through) plus what only the SQL side needs.
type Session struct {
	*scan.Session
	// TimeLabels declares label columns whose labels all read as dates or
	// timestamps with the types DeclDateLabels or DeclDateTimeLabels
	// (TEXT affinity still), so that a driver can deliver them as times.
	// Set it before creating tables.
	TimeLabels bool
	// FilesRefused, when set, is asked each time tet_files plans a scan;
	// an error refuses the statement (safe mode: tet_files reads the
	// filesystem at a path the SQL names). Set it before use.
	FilesRefused func() error
	// Warn receives the warnings of many-file tables (a file skipped by
	// on_error=skip), one line each without a trailing newline; nil
	// writes them to standard error. Set it before use.
	Warn func(msg string)
	// ManyCacheBudget is the decoded-chunk cache of a many-file table's
	// kept files, all together (each gets its share, see
	// manyKeepFiles); 0 = none. The driver sets its per-file cache
	// budget. Set it before creating tables.
	ManyCacheBudget int64

	tables atomic.Uint64 // tables connected or dropped, see TableEvents

	// export is the armed exporter (export.go), exportUsed whether a scan
	// took it. Only the connection's own statements touch them, one at a
	// time.
	export     ExportFunc
	exportUsed bool
}

// NewSession returns a session whose tables open files through reg.
func NewSession(reg *scan.Registry) *Session {
	return &Session{Session: scan.NewSession(reg)}
}

// engine is the engine session of s (nil for none).
func (s *Session) engine() *scan.Session {
	if s == nil {
		return nil
	}
	return s.Session
}

// Warning reports a warning line through Warn (standard error without
// one).
func (s *Session) Warning(msg string) {
	if s != nil && s.Warn != nil {
		s.Warn(msg)
		return
	}
	fmt.Fprintln(os.Stderr, "tetsql: warning: "+msg)
}

// setErr keeps a read error for the driver (s may be nil).
func (s *Session) setErr(err error) { s.engine().SetErr(err) }

// forgotten is how many times Forget ran (0 for a nil session).
func (s *Session) forgotten() uint64 { return s.engine().Forgotten() }

// TableEvents counts the tet tables of this session connected, created,
// disconnected or dropped so far. The driver compares it across uses of a
// pooled connection: a DETACH of one of its schemas, or a DROP or CREATE
// of a tet table, changes it, whatever the SQL schema looks like after.
func (s *Session) TableEvents() uint64 {
	if s == nil {
		return 0
	}
	return s.tables.Load()
}

func (s *Session) tableEvent() {
	if s != nil {
		s.tables.Add(1)
	}
}

// FileChanged reports whether a statement of this session failed
// because a file changed on disk: its tables read the old file, and the
// driver replaces the connection.
func (s *Session) FileChanged() bool { return s.engine().FileChanged() }

// openTable opens the file a table names through the session's registry.
// A connection without a session has no registry, and so no tables.
func openTable(sess *Session, a tableArgs) (*scan.Handle, error) {
	if sess == nil || sess.Registry == nil {
		return nil, fmt.Errorf("tet: table %q: the connection has no session to open files with (see vtab.Open)", a.table)
	}
	return sess.Registry.Open(a.path)
}

// ScanStats are the counters of one cursor (see scan.ScanStats).
type ScanStats = scan.ScanStats

// Call is the context of one driver call (see scan.Call).
type Call = scan.Call

// NewCall wraps ctx; it returns nil for a context that is never done.
func NewCall(ctx context.Context) *Call { return scan.NewCall(ctx) }

// MaxKeptScans is how many finished scans a session keeps between two
// TakeScans calls (see scan.MaxKeptScans).
const MaxKeptScans = scan.MaxKeptScans
