package mapfile

import (
	"fmt"
	"os"

	"github.com/tetsql/tetsql/array"
)

// ident identifies the contents a mapping was taken from. A file renamed
// over the path has another inode (or device); one rewritten in place
// has another size or modification time.
type ident struct {
	dev, ino uint64
	size     int64
	mtime    int64 // nanoseconds
}

// CheckUnchanged reports, with an error wrapping array.ErrChanged,
// whether the path the file was opened from no longer names the bytes
// that are mapped: the file was replaced (renamed over, deleted) or
// rewritten in place since Open. It costs one stat call. A rewrite that
// keeps the size and lands within the file system's timestamp
// granularity of the previous write cannot be seen this way. Bytes from
// FromBytes never change.
func (f *File) CheckUnchanged() error {
	if f.statPath == "" {
		return nil
	}
	st, err := os.Stat(f.statPath)
	if err != nil {
		return fmt.Errorf("%s: %w (%v)", f.path, array.ErrChanged, err)
	}
	if identOf(st) != f.ident {
		return fmt.Errorf("%s: %w", f.path, array.ErrChanged)
	}
	return nil
}
