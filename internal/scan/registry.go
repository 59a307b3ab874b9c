package scan

import (
	"math"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/tetsql/tetsql/array"
)

// Registry opens files once and shares them: every table of every
// connection of one driver that names a path reads the same [Source]
// (one mapping, one chunk cache, one set of chunk statistics). The driver
// owns one; tests may make their own. Its methods are safe for
// concurrent use.
type Registry struct {
	formats []array.Format
	ids     atomic.Int64 // the last Session.ID handed out

	evictWindow, evictBatch atomic.Uint64 // see SetEvictWindow

	mu   sync.Mutex
	m    map[string]*opening // the current opening of each path
	live map[*opening]string // every opening still held, by path
}

// NewRegistry returns a registry that opens files with the first of
// formats whose Sniff recognises their first bytes.
func NewRegistry(formats []array.Format) *Registry {
	r := &Registry{formats: formats, m: map[string]*opening{}, live: map[*opening]string{}}
	r.evictWindow.Store(DefaultEvictWindow)
	r.evictBatch.Store(DefaultEvictBatch)
	return r
}

// Formats is the format list the registry was made with.
func (r *Registry) Formats() []array.Format { return r.formats }

// opening is one opening of a path. It is created in the registry
// before the file is opened and becomes ready when the open ends, so
// that the registry lock is never held across file I/O: a slow or
// refused open of one path never delays another.
type opening struct {
	ready chan struct{} // closed once src or err is set
	src   *Source
	err   error
	refs  int // guarded by Registry.mu
}

// Handle is a reference to a file the registry opened. Every Handle must
// be released with Close.
type Handle struct {
	src  *Source
	key  string
	of   *opening
	r    *Registry
	once sync.Once
}

// Open returns a Handle to the file at path, opening it on first use
// (with the format its first bytes name; array.ErrUnknownFormat when
// none does); later calls for the same path share the open source. The
// source is closed when the last Handle is closed (and, for a format
// that pins, once no cursor still reads it).
//
// A path whose file changed on disk since it was opened (see
// array.ChangeChecker) is opened afresh: the stale source is no longer
// handed out, and stays open only for the handles that still hold it.
func (r *Registry) Open(path string) (*Handle, error) {
	key, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	for {
		r.mu.Lock()
		of := r.m[key]
		opener := of == nil
		if opener {
			of = &opening{ready: make(chan struct{})}
			r.m[key] = of
		}
		of.refs++
		r.mu.Unlock()
		if opener {
			of.src, of.err = r.open(path, key)
			r.mu.Lock()
			if of.err != nil {
				if r.m[key] == of {
					delete(r.m, key)
				}
			} else {
				r.live[of] = key
			}
			close(of.ready)
			r.mu.Unlock()
		} else {
			<-of.ready
		}
		if of.err != nil {
			return nil, of.err // the failed opening is out of the map: refs do not matter
		}
		if !opener && of.src.CheckUnchanged() != nil {
			r.mu.Lock()
			if r.m[key] == of {
				delete(r.m, key) // the next pass opens the new file
			}
			r.mu.Unlock()
			r.release(of)
			continue
		}
		return &Handle{src: of.src, key: key, of: of, r: r}, nil
	}
}

// open sniffs and opens path. Sources are opened with no chunk size
// limit of their own: each table enforces its own (see Reader), so a
// limit given when a table is created applies even to a file already
// open.
func (r *Registry) open(path, key string) (*Source, error) {
	f, err := sniff(r.formats, path)
	if err != nil {
		return nil, err
	}
	src, err := f.Open(path, array.Options{MaxChunkBytes: math.MaxInt64})
	if err != nil {
		return nil, err
	}
	s := newSource(src, f, key, path)
	s.reg = r
	return s, nil
}

// release drops one reference to of, closing its source after the last.
func (r *Registry) release(of *opening) error {
	r.mu.Lock()
	of.refs--
	last := of.refs == 0
	if last {
		key := r.live[of]
		delete(r.live, of)
		if r.m[key] == of {
			delete(r.m, key)
		}
	}
	r.mu.Unlock()
	if !last {
		return nil
	}
	return of.src.close()
}

// Source is the opened file the handle refers to.
func (h *Handle) Source() *Source { return h.src }

// Path is the absolute path the file was opened by.
func (h *Handle) Path() string { return h.key }

// Close releases the handle; it is safe to call more than once.
func (h *Handle) Close() error {
	var err error
	h.once.Do(func() { err = h.r.release(h.of) })
	return err
}

// OpenPaths lists the absolute paths of the files the registry holds
// open, sorted: every one is held by a Handle or a table not yet closed
// (tests use it to check that closing a database releases its files). A
// path opened again after it changed on disk is listed once per opening.
func (r *Registry) OpenPaths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.live))
	for _, k := range r.live {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
