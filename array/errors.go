package array

import "errors"

// Sentinel errors shared by every format. A format wraps one of these with
// context naming the file, array and chunk; callers test with errors.Is.
var (
	// ErrCorrupt typically indicates corrupted input: a field out of
	// range, inconsistent with another, or pointing outside the file.
	ErrCorrupt = errors.New("corrupt")
	// ErrTruncated typically indicates a file cut short.
	ErrTruncated = errors.New("truncated")
	// ErrUnsupported indicates content this reader does not handle (a
	// version, dtype, codec or filter); the message names it.
	ErrUnsupported = errors.New("unsupported")
	// ErrDecode indicates a chunk that fails to decode to exactly its
	// declared size.
	ErrDecode = errors.New("chunk decode failed")
	// ErrMissingChunk indicates a chunk position the file does not store.
	ErrMissingChunk = errors.New("chunk not present in index")
	// ErrTooLarge indicates a chunk whose decoded size exceeds a limit.
	ErrTooLarge = errors.New("chunk larger than the configured limit")
	// ErrClosed indicates use of a source after Close.
	ErrClosed = errors.New("file closed")
	// ErrNotFound indicates an unknown array name.
	ErrNotFound = errors.New("not found")
	// ErrNotRegular indicates a path naming a FIFO, socket, device or
	// directory where a regular file is needed.
	ErrNotRegular = errors.New("not a regular file")
	// ErrChanged indicates a file replaced, rewritten or truncated on
	// disk while it was open. Open the path again to see the new contents.
	ErrChanged = errors.New("file changed on disk: reopen it")
	// ErrUnknownFormat indicates a file no known format recognises.
	ErrUnknownFormat = errors.New("not a file of a known format")
)
