package vtab

import (
	"context"
	"errors"
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
	of   *openFile
	once sync.Once
}

// openFile is one opening of a path. It is created in the registry
// before the file is opened and becomes ready when the open ends, so
// that the registry lock is never held across file I/O: a slow or
// refused open of one path never delays another.
type openFile struct {
	ready chan struct{} // closed once file or err is set
	file  *tetcore.File
	err   error
	refs  int // guarded by files
}

var files = struct {
	sync.Mutex
	m    map[string]*openFile // the current opening of each path
	live map[*openFile]string // every opening still held, by path
}{m: map[string]*openFile{}, live: map[*openFile]string{}}

// OpenFile returns a Handle to the file at path, opening and mapping it
// on first use; later calls for the same path share the mapping. The file
// is unmapped when the last Handle is closed (and no cursor still reads).
//
// A path whose file changed on disk since it was mapped (replaced,
// rewritten or truncated, see tetcore.File.CheckUnchanged) is opened
// afresh: the stale mapping is no longer handed out, and stays mapped
// only for the handles that still hold it.
func OpenFile(path string, opts ...tetcore.Option) (*Handle, error) {
	key, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	for {
		files.Lock()
		of := files.m[key]
		opener := of == nil
		if opener {
			of = &openFile{ready: make(chan struct{})}
			files.m[key] = of
		}
		of.refs++
		files.Unlock()
		if opener {
			of.file, of.err = tetcore.Open(path, opts...)
			files.Lock()
			if of.err != nil {
				if files.m[key] == of {
					delete(files.m, key)
				}
			} else {
				files.live[of] = key
			}
			close(of.ready)
			files.Unlock()
		} else {
			<-of.ready
		}
		if of.err != nil {
			return nil, of.err // the failed opening is out of the map: refs do not matter
		}
		if !opener && of.file.CheckUnchanged() != nil {
			files.Lock()
			if files.m[key] == of {
				delete(files.m, key) // the next pass opens the new file
			}
			files.Unlock()
			release(of)
			continue
		}
		return &Handle{File: of.file, key: key, of: of}, nil
	}
}

// release drops one reference to of, closing its file after the last.
func release(of *openFile) error {
	files.Lock()
	of.refs--
	last := of.refs == 0
	if last {
		key := files.live[of]
		delete(files.live, of)
		if files.m[key] == of {
			delete(files.m, key)
		}
	}
	files.Unlock()
	if !last {
		return nil
	}
	dropCaches(of.file)
	dropChunkCache(of.file)
	return of.file.Close()
}

// Path is the absolute path the file was opened by.
func (h *Handle) Path() string { return h.key }

// Close releases the handle; it is safe to call more than once.
func (h *Handle) Close() error {
	var err error
	h.once.Do(func() { err = release(h.of) })
	return err
}

// openCount reports how many files are open (for tests).
func openCount() int {
	files.Lock()
	defer files.Unlock()
	return len(files.live)
}

// OpenPaths lists the absolute paths of the files open in the process,
// sorted: every one is held by a Handle or a table not yet closed (tests
// use it to check that closing a database releases its files). A path
// opened again after it changed on disk is listed once per mapping.
func OpenPaths() []string {
	files.Lock()
	defer files.Unlock()
	out := make([]string, 0, len(files.live))
	for _, k := range files.live {
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
	// TimeLabels declares label columns whose labels all read as dates or
	// timestamps with the types DeclDateLabels or DeclDateTimeLabels
	// (TEXT affinity still), so that a driver can deliver them as times.
	// Set it before creating tables.
	TimeLabels bool
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

	call  atomic.Pointer[Call]
	mu    sync.Mutex
	scans []ScanStats // ring of the newest MaxKeptScans scans, oldest at head
	head  int
	last  ScanStats
	any   bool
	err   error // last cursor read error, see TakeError

	changed atomic.Bool   // a statement found a file changed on disk
	held    atomic.Int64  // bytes open cursors hold against MemLimit (memlimit.go)
	tables  atomic.Uint64 // tables connected or dropped, see TableEvents
	epoch   atomic.Uint64 // bumped by Forget; older per-connection last scans are not reported

}

// MaxKeptScans is how many finished scans a session keeps between two
// TakeScans calls; past it the oldest are dropped, so TakeScans always
// returns the newest ones (a program that never reads them keeps bounded
// memory).
const MaxKeptScans = 1024

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

// CloseSession forgets s, once every connection opened with it is
// closed.
func CloseSession(s *Session) {
	sessions.Lock()
	delete(sessions.m, s.ID)
	sessions.Unlock()
}

// record stores the statistics of a finished scan.
func (s *Session) record(st ScanStats) {
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
	if errors.Is(err, tetcore.ErrChanged) {
		s.changed.Store(true)
	}
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

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

// forgotten is how many times Forget ran (0 for a nil session).
func (s *Session) forgotten() uint64 {
	if s == nil {
		return 0
	}
	return s.epoch.Load()
}

func (s *Session) tableEvent() {
	if s != nil {
		s.tables.Add(1)
	}
}

// FileChanged reports whether a statement of this session failed
// because a file changed on disk (tetcore.ErrChanged): its tables map
// the old file, and the driver replaces the connection.
func (s *Session) FileChanged() bool { return s != nil && s.changed.Load() }

// pin acquires f for a cursor of table: it fails once f is closed or
// changed on disk (see tetcore.File.Acquire), and keeps the error for
// the driver, as bindings may drop xOpen's message.
func (s *Session) pin(f *tetcore.File, table string) error {
	if err := f.Acquire(); err != nil {
		err = fmt.Errorf("tet: %s: %w", table, err)
		s.setErr(err)
		return err
	}
	return nil
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
