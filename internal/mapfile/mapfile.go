// Package mapfile maps a file read-only into memory for a format package
// and keeps the mapping safe to read: a fault from a file that shrank
// under the mapping becomes an error (Guard, Copy), a file replaced or
// rewritten since Open is noticed (CheckUnchanged), the mapping outlives
// Close while readers hold pins (Acquire, Release), and pages a scan is
// done with can be handed back to the operating system (EvictRange).
//
// Formats that decode from the mapping (every compressed format) get
// these guarantees from one place instead of each re-implementing them.
package mapfile

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/edsrzf/mmap-go"
	"github.com/tetsql/tetsql/array"
)

// File is a read-only mapping of one regular file. Its methods are safe
// for concurrent use.
type File struct {
	path     string // as given to Open, for messages
	statPath string // absolute: a later chdir must not make the file look changed
	ident    ident
	data     []byte // nil for an empty file
	mapped   bool   // data is a mapping (reads can fault); false for FromBytes

	mu     sync.Mutex
	refs   int
	closed bool
	unmap  func() error
}

// Open maps the regular file at path (see array.OpenRegular: FIFOs,
// devices and directories are refused before anything could block). The
// file descriptor is closed at once; the mapping lives until Close and
// the last Release. An empty file has no mapping and Data returns nil.
func Open(path string) (*File, error) {
	fh, st, err := array.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f := &File{path: path, statPath: path, ident: identOf(st)}
	if abs, err := filepath.Abs(path); err == nil {
		f.statPath = abs
	}
	if st.Size() > 0 {
		m, err := mmap.Map(fh, mmap.RDONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("mmap %s: %w", path, err)
		}
		f.data, f.unmap, f.mapped = m, m.Unmap, true
	}
	return f, nil
}

// FromBytes is a File over bytes the caller holds, for a format that
// parses a file already in memory with the same code as a mapped one.
// Nothing is mapped: Guard and Copy run bare (the bytes cannot fault),
// CheckUnchanged reports nil, EvictRange does nothing and Path is "".
// Pins and Close behave as for a mapping, so Released reports when the
// bytes must no longer be read.
func FromBytes(data []byte) *File {
	return &File{data: data}
}

// Data is the mapped bytes. Read them only under Guard (or through Copy),
// and not after Close unless a pin is held.
func (f *File) Data() []byte { return f.data }

// Path is the path the file was opened with ("" for FromBytes).
func (f *File) Path() string { return f.path }

// Acquire pins the mapping: it stays valid until the matching Release,
// even across Close. It fails with an error wrapping array.ErrClosed
// after Close, and with one wrapping array.ErrChanged when the file on
// disk is no longer the one mapped.
func (f *File) Acquire() error {
	if err := f.CheckUnchanged(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		if f.path == "" {
			return array.ErrClosed
		}
		return fmt.Errorf("%s: %w", f.path, array.ErrClosed)
	}
	f.refs++
	return nil
}

// Release undoes one Acquire; the last Release after Close unmaps.
func (f *File) Release() {
	f.mu.Lock()
	f.refs--
	release := f.closed && f.refs == 0
	f.mu.Unlock()
	if release {
		f.doUnmap()
	}
}

// Close marks the file closed and unmaps it at once, or at the last
// Release when pins are held. It is idempotent.
func (f *File) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	release := f.refs == 0
	f.mu.Unlock()
	if release {
		return f.doUnmap()
	}
	return nil
}

// Closed reports whether Close was called (pins may still hold the
// mapping: see Released).
func (f *File) Closed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}

// Released reports whether Close was called and no pin is left: the
// bytes must not be read any more (for a mapping, they are unmapped).
func (f *File) Released() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed && f.refs == 0
}

func (f *File) doUnmap() error {
	f.mu.Lock()
	u := f.unmap
	f.unmap = nil
	f.mu.Unlock()
	if u == nil {
		return nil
	}
	return u()
}
