package vtab

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/tetsql/tetsql/tetcore"
)

// Handle is a reference to a file opened once per process. Every Handle
// must be released with Close.
type Handle struct {
	File *tetcore.File
	key  string
	once sync.Once
}

type openFile struct {
	file *tetcore.File
	refs int
}

var files = struct {
	sync.Mutex
	m map[string]*openFile
}{m: map[string]*openFile{}}

// OpenFile returns a Handle to the file at path, opening and mapping it
// on first use; later calls for the same path share the mapping. The file
// is unmapped when the last Handle is closed (and no cursor still reads).
func OpenFile(path string, opts ...tetcore.Option) (*Handle, error) {
	key, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	files.Lock()
	defer files.Unlock()
	of := files.m[key]
	if of == nil {
		f, err := tetcore.Open(path, opts...)
		if err != nil {
			return nil, err
		}
		of = &openFile{file: f}
		files.m[key] = of
	}
	of.refs++
	return &Handle{File: of.file, key: key}, nil
}

// Path is the absolute path the file was opened by.
func (h *Handle) Path() string { return h.key }

// Close releases the handle; it is safe to call more than once.
func (h *Handle) Close() error {
	var err error
	h.once.Do(func() {
		files.Lock()
		defer files.Unlock()
		of := files.m[h.key]
		if of == nil {
			return
		}
		of.refs--
		if of.refs == 0 {
			delete(files.m, h.key)
			dropCaches(of.file)
			dropChunkCache(of.file)
			err = of.file.Close()
		}
	})
	return err
}

// openCount reports how many files are open (for tests).
func openCount() int {
	files.Lock()
	defer files.Unlock()
	return len(files.m)
}

// OpenPaths lists the absolute paths of the files open in the process,
// sorted: every one is held by a Handle or a table not yet closed (tests
// use it to check that closing a database releases its files).
func OpenPaths() []string {
	files.Lock()
	defer files.Unlock()
	out := make([]string, 0, len(files.m))
	for k := range files.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Session groups the tables of one SQLite connection so that scan
// statistics can be read per connection, and carries the connection's
// scan settings and the context of the call in progress.
type Session struct {
	ID int64
	// ReadAhead is how many planned chunks past the one being read a
	// cells cursor of this session decodes ahead on other goroutines
	// (0 = none: decode on demand). A cursor then holds at most
	// ReadAhead+1 decoded chunks. Scans with a pushed-down LIMIT and
	// single-chunk plans never read ahead. Set it before creating tables.
	ReadAhead int
	// DecodeParallelism is how many goroutines per cursor decode ahead
	// (0 = min(ReadAhead, GOMAXPROCS)). Set it before creating tables.
	DecodeParallelism int
	// MemLimit bounds the buffers one query may ask of tetsql (0 =
	// DefaultMemLimit): an aggregate's groups and chunk list, a metadata
	// table's rows. A query above it fails with a MemLimitError before
	// allocating them.
	MemLimit int64

	call  atomic.Pointer[Call]
	mu    sync.Mutex
	scans []ScanStats
	last  ScanStats
	any   bool
	err   error // last cursor read error, see TakeError
}

var sessions = struct {
	sync.Mutex
	next int64
	m    map[int64]*Session
}{m: map[int64]*Session{}}

// NewSession registers a session; CloseSession forgets it.
func NewSession() *Session {
	sessions.Lock()
	defer sessions.Unlock()
	sessions.next++
	s := &Session{ID: sessions.next}
	sessions.m[s.ID] = s
	return s
}

// CloseSession forgets s.
func CloseSession(s *Session) {
	sessions.Lock()
	delete(sessions.m, s.ID)
	sessions.Unlock()
}

func lookupSession(id int64) *Session {
	sessions.Lock()
	defer sessions.Unlock()
	return sessions.m[id]
}

// record stores the statistics of a finished scan.
func (s *Session) record(st ScanStats) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.scans) < 1024 {
		s.scans = append(s.scans, st)
	}
	s.last, s.any = st, true
}

// TakeScans returns the scans recorded since the previous call and
// forgets them (the CLI prints them after each statement).
func (s *Session) TakeScans() []ScanStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.scans
	s.scans = nil
	return out
}

// LastScan returns the most recent finished scan, if any.
func (s *Session) LastScan() (ScanStats, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, s.any
}

// setErr keeps a cursor's read error: SQLite reports an error from xNext
// without its message, so the driver asks TakeError for the real one.
func (s *Session) setErr(err error) {
	if s == nil {
		return
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

// done returns the current call's Done channel (nil if none).
func (s *Session) done() <-chan struct{} {
	if s == nil {
		return nil
	}
	if c := s.call.Load(); c != nil {
		return c.done
	}
	return nil
}

// interrupted returns the current call's context error once it is done.
func (s *Session) interrupted() error {
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

func (s *Session) String() string { return fmt.Sprintf("session %d", s.ID) }
