package tetcore

import "errors"

// Sentinel errors. Errors returned by this package wrap one of these with
// context; test for them with errors.Is.
var (
	// ErrBadMagic typically indicates that the input is not a .tet file or
	// is corrupted: a magic number (TETR, TIDX, THST) does not match.
	ErrBadMagic = errors.New("bad magic")
	// ErrUnsupported indicates a version or flag this reader does not know.
	ErrUnsupported = errors.New("unsupported")
	// ErrCorrupt typically indicates corrupted input: a field is out of
	// range, inconsistent with another, or points outside the file.
	ErrCorrupt = errors.New("corrupt")
	// ErrTruncated typically indicates a file cut short: a region ends
	// past the end of the data.
	ErrTruncated = errors.New("truncated")
	// ErrDecode indicates a chunk payload that fails to decode to exactly
	// its declared size.
	ErrDecode = errors.New("chunk decode failed")
	// ErrMissingChunk indicates a chunk position with no index entry.
	ErrMissingChunk = errors.New("chunk not present in index")
	// ErrTooLarge indicates a chunk whose decoded size exceeds the
	// configured limit.
	ErrTooLarge = errors.New("chunk larger than the configured limit")
	// ErrClosed indicates use of a file after Close.
	ErrClosed = errors.New("file closed")
	// ErrNotFound indicates an unknown dataset name.
	ErrNotFound = errors.New("not found")
	// ErrNotRegular indicates a path that names a FIFO, socket, device or
	// directory: only regular files are opened.
	ErrNotRegular = errors.New("not a regular file")
	// ErrChanged indicates a file replaced, rewritten or truncated on disk
	// while it was open: its mapping no longer matches the file. Open the
	// path again to see the new contents.
	ErrChanged = errors.New("file changed on disk: reopen it")
)
