package tetcore

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/mapfile"
)

// Open opens path read-only, maps it into memory once and parses it.
// The file descriptor is closed right away; the mapping lives until Close.
//
// Only regular files are opened: a FIFO, socket, device or directory is
// refused (ErrNotRegular) before anything could block on it. The path is
// checked with stat first and opened non-blocking, and the opened file is
// checked again, so a FIFO swapped in between cannot hang the caller.
func Open(path string, opts ...Option) (*File, error) {
	mf, err := mapfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tetcore: %w", err)
	}
	var f *File
	// The file may shrink while it is parsed, too.
	if gerr := mf.Guard(func() { f, err = parse(mf, opts) }); gerr != nil {
		err = prefixed(gerr)
	}
	if err != nil {
		mf.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// The reads of a File's bytes, its change check, pins and eviction are
// those of its mapfile.File: a mapping for Open, the caller's bytes for
// Parse (which cannot fault or change, and have nothing to evict).

// Guard runs read, which may read bytes of the file's mapping (chunk
// views from ReadChunk or Stored), and returns an error wrapping
// ErrChanged, "file X was truncated while in use", if such a read faults
// because the file shrank. Other panics pass through unchanged. read must
// not start goroutines that read the mapping: the guard is per goroutine.
// The cost is paid per call, so callers guard whole chunks or runs of
// elements, never single values.
func (f *File) Guard(read func()) error { return prefixed(f.mf.Guard(read)) }

// Copy copies src, bytes of the file's mapping, to dst as the built-in
// copy does, under Guard.
func (f *File) Copy(dst, src []byte) (int, error) {
	n, err := f.mf.Copy(dst, src)
	return n, prefixed(err)
}

// CheckUnchanged reports, with an error wrapping ErrChanged, whether the
// path the file was opened from no longer names the bytes that are
// mapped: the file was replaced (renamed over, deleted) or rewritten in
// place since Open. It costs one stat call. Files from Parse never change.
//
// A rewrite that keeps the size and lands within the file system's
// timestamp granularity of the previous write cannot be seen this way.
func (f *File) CheckUnchanged() error { return prefixed(f.mf.CheckUnchanged()) }

// Evict tells the operating system that the process no longer needs the
// mapped pages that lie wholly inside chunk c's stored bytes. The pages
// stay in the page cache and are mapped again, with the same contents,
// if anything reads them later; dropping them only keeps a long scan of a
// large file from growing the process's resident set by the whole file.
// It does nothing for files parsed from bytes, or once the file is
// closed, and never fails.
func (f *File) Evict(c *Chunk) {
	f.EvictRange(c.Offset, c.Offset+uint64(c.StoredLen))
}

// EvictRange is [File.Evict] for the stored bytes [start, end) of the
// file, typically several neighbouring chunks at once: the pages lying
// wholly inside the range are dropped in one call.
func (f *File) EvictRange(start, end uint64) { f.mf.EvictRange(start, end) }

// prefixed says which package an error of the mapping comes from, as
// the package's other errors do; nil stays nil.
func prefixed(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("tetcore: %w", err)
}
