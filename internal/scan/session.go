package scan

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tetsql/tetsql/array"
)

// Session is the engine state of one SQLite connection: its scan
// settings, the statistics of its finished scans, the context of the
// driver call in progress, its last read error and its memory limit.
type Session struct {
	// ID numbers the sessions of one registry.
	ID int64
	// Registry opens the files of the session's tables.
	Registry *Registry
	// ReadAhead is how many planned chunks past the one being read a
	// cells cursor of this session decodes ahead on other goroutines:
	// 0 = automatic (AutoReadAhead, for scans that must decode their
	// chunks), negative = none (decode on demand). A cursor then holds at
	// most ReadAhead+1 decoded chunks. Scans with a pushed-down LIMIT and
	// single-chunk plans never read ahead. Set it before creating tables.
	ReadAhead int
	// DecodeParallelism is how many goroutines per cursor decode ahead
	// (0 = min(read-ahead depth, GOMAXPROCS)). Set it before creating
	// tables.
	DecodeParallelism int
	// ReadAheadBytes bounds the decoded bytes a cursor reads ahead (0 =
	// DefaultReadAheadBytes): a cursor reads at most
	// ReadAheadBytes / (bytes of one decoded chunk) chunks ahead, fewer
	// than ReadAhead for large chunks, and none when one chunk is larger.
	ReadAheadBytes int64
	// MemLimit bounds the buffers one query may ask of tetsql (0 =
	// DefaultMemLimit): an aggregate's groups and chunk list, a metadata
	// table's rows. A query above it fails with a MemLimitError before
	// allocating them.
	MemLimit int64
	// MaxChunkBytes bounds the decoded size of one chunk the session's
	// tables read (0 = DefaultMaxChunkBytes). A table keeps the value it
	// was created with, whether or not its file was already open.
	MaxChunkBytes int64

	call  atomic.Pointer[Call]
	mu    sync.Mutex
	scans []ScanStats // ring of the newest MaxKeptScans scans, oldest at head
	head  int
	last  ScanStats
	any   bool
	err   error // last cursor read error, see TakeError

	changed atomic.Bool   // a statement found a file changed on disk
	held    atomic.Int64  // bytes open cursors hold against MemLimit (memlimit.go)
	epoch   atomic.Uint64 // bumped by Forget

	live liveCounters // running totals for a progress line (live.go)
}

// MaxKeptScans is how many finished scans a session keeps between two
// TakeScans calls; past it the oldest are dropped, so TakeScans always
// returns the newest ones (a program that never reads them keeps bounded
// memory).
const MaxKeptScans = 1024

// NewSession returns a session whose tables open files through reg.
func NewSession(reg *Registry) *Session {
	s := &Session{Registry: reg}
	if reg != nil {
		s.ID = reg.ids.Add(1)
	}
	return s
}

// Record stores the statistics of a finished scan.
func (s *Session) Record(st ScanStats) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.scans) < MaxKeptScans {
		s.scans = append(s.scans, st)
	} else {
		s.scans[s.head] = st
		s.head = (s.head + 1) % len(s.scans)
	}
	s.last, s.any = st, true
}

// TakeScans returns the scans recorded since the previous call and
// forgets them (the CLI prints them after each statement), oldest first:
// at most the newest MaxKeptScans.
func (s *Session) TakeScans() []ScanStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append(s.scans[s.head:len(s.scans):len(s.scans)], s.scans[:s.head]...)
	s.scans, s.head = nil, 0
	return out
}

// Forget drops the scans recorded so far, the last scan (also what
// tet_last_scan() reports on the session's connections) and the last
// read error: the driver calls it before handing a pooled connection to
// its next user, who must not see the previous user's queries.
func (s *Session) Forget() {
	s.mu.Lock()
	s.scans, s.head = nil, 0
	s.last, s.any = ScanStats{}, false
	s.err = nil
	s.mu.Unlock()
	s.epoch.Add(1)
}

// Forgotten is how many times Forget ran (0 for a nil session): a
// binding that caches the last scan per connection drops what it cached
// before.
func (s *Session) Forgotten() uint64 {
	if s == nil {
		return 0
	}
	return s.epoch.Load()
}

// LastScan returns the most recent finished scan, if any.
func (s *Session) LastScan() (ScanStats, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, s.any
}

// SetErr keeps a cursor's read error: SQLite carries only its message,
// so the driver asks TakeError for the Go error itself (errors.Is then
// works on what the program receives).
func (s *Session) SetErr(err error) {
	if s == nil {
		return
	}
	if errors.Is(err, array.ErrChanged) {
		s.changed.Store(true)
	}
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

// TakeError returns and clears the last read error a cursor of this
// session hit, if any.
func (s *Session) TakeError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.err
	s.err = nil
	return err
}

// FileChanged reports whether a statement of this session failed
// because a file changed on disk (array.ErrChanged): its tables read the
// old file, and the driver replaces the connection.
func (s *Session) FileChanged() bool { return s != nil && s.changed.Load() }

// Pin acquires src for a cursor of table: it fails once src is closed or
// changed on disk (see Source.Acquire), and keeps the error for the
// driver (SQLite passes on only xOpen's message).
func (s *Session) Pin(src *Source, table string) error {
	if err := src.Acquire(); err != nil {
		err = fmt.Errorf("tet: %s: %w", table, err)
		s.SetErr(err)
		return err
	}
	return nil
}

// Call is the context of one driver call (running a statement, or
// stepping its rows) as the session's cursors see it: once the context is
// done, a cursor stops within a few thousand rows or at the next chunk,
// and fails with the context's error.
type Call struct {
	ctx  context.Context
	done <-chan struct{}
}

// NewCall wraps ctx; it returns nil for a context that is never done.
func NewCall(ctx context.Context) *Call {
	if ctx == nil || ctx.Done() == nil {
		return nil
	}
	return &Call{ctx: ctx, done: ctx.Done()}
}

// Enter makes c (nil = none) the call the session's cursors watch, until
// the next Enter. The driver enters a call before every statement and
// every step through rows; it allocates nothing.
func (s *Session) Enter(c *Call) {
	if s != nil {
		s.call.Store(c)
	}
}

// Done returns the current call's Done channel (nil if none).
func (s *Session) Done() <-chan struct{} {
	if s == nil {
		return nil
	}
	if c := s.call.Load(); c != nil {
		return c.done
	}
	return nil
}

// Interrupted returns the current call's context error once it is done.
func (s *Session) Interrupted() error {
	if s == nil {
		return nil
	}
	c := s.call.Load()
	if c == nil {
		return nil
	}
	select {
	case <-c.done:
		return c.ctx.Err()
	default:
		return nil
	}
}

// String is "session ID".
func (s *Session) String() string { return fmt.Sprintf("session %d", s.ID) }
