package tetcore

import (
	"errors"

	"github.com/tetsql/tetsql/array"
)

// Sentinel errors. Errors returned by this package wrap one of these with
// context; test for them with errors.Is. Every sentinel but ErrBadMagic is
// the array package's value of the same meaning, so a test such as
// errors.Is(err, array.ErrCorrupt) holds for an error from this package
// too, whichever layer asks.
var (
	// ErrBadMagic typically indicates that the input is not a .tet file or
	// is corrupted: a magic number (TETR, TIDX, THST) does not match.
	ErrBadMagic = errors.New("bad magic")
	// ErrUnsupported indicates a version or flag this reader does not know.
	ErrUnsupported = array.ErrUnsupported
	// ErrCorrupt typically indicates corrupted input: a field is out of
	// range, inconsistent with another, or points outside the file.
	ErrCorrupt = array.ErrCorrupt
	// ErrTruncated typically indicates a file cut short: a region ends
	// past the end of the data.
	ErrTruncated = array.ErrTruncated
	// ErrDecode indicates a chunk payload that fails to decode to exactly
	// its declared size.
	ErrDecode = array.ErrDecode
	// ErrMissingChunk indicates a chunk position with no index entry.
	ErrMissingChunk = array.ErrMissingChunk
	// ErrTooLarge indicates a chunk whose decoded size exceeds the
	// configured limit.
	ErrTooLarge = array.ErrTooLarge
	// ErrClosed indicates use of a file after Close.
	ErrClosed = array.ErrClosed
	// ErrNotFound indicates an unknown dataset name.
	ErrNotFound = array.ErrNotFound
	// ErrNotRegular indicates a path that names a FIFO, socket, device or
	// directory: only regular files are opened.
	ErrNotRegular = array.ErrNotRegular
	// ErrChanged indicates a file replaced, rewritten or truncated on disk
	// while it was open: its mapping no longer matches the file. Open the
	// path again to see the new contents.
	ErrChanged = array.ErrChanged
)
