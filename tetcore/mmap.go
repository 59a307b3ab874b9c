package tetcore

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/edsrzf/mmap-go"
)

// Open opens path read-only, maps it into memory once and parses it.
// The file descriptor is closed right away; the mapping lives until Close.
//
// Only regular files are opened: a FIFO, socket, device or directory is
// refused (ErrNotRegular) before anything could block on it. The path is
// checked with stat first and opened non-blocking, and the opened file is
// checked again, so a FIFO swapped in between cannot hang the caller.
func Open(path string, opts ...Option) (*File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("tetcore: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st)
	}
	fh, err := openNonBlocking(path)
	if err != nil {
		return nil, fmt.Errorf("tetcore: %w", err)
	}
	defer fh.Close()
	st, err = fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("tetcore: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st)
	}
	var data []byte
	var unmap func() error
	if st.Size() > 0 {
		m, err := mmap.Map(fh, mmap.RDONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("tetcore: mmap %s: %w", path, err)
		}
		data, unmap = m, m.Unmap
	}
	var f *File
	if unmap != nil {
		// The file may shrink while it is parsed, too.
		if gerr := guard(data, path, func() { f, err = Parse(data, opts...) }); gerr != nil {
			err = gerr
		}
	} else {
		f, err = Parse(data, opts...)
	}
	if err != nil {
		if unmap != nil {
			unmap()
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.path, f.unmap, f.ident, f.mapped = path, unmap, identOf(st), unmap != nil
	f.statPath = path
	if abs, err := filepath.Abs(path); err == nil {
		f.statPath = abs // a later chdir must not make the file look changed
	}
	return f, nil
}

func notRegular(path string, st os.FileInfo) error {
	return fmt.Errorf("tetcore: %s is a %s: %w", path, kindOf(st.Mode()), ErrNotRegular)
}

// kindOf names a non-regular file type for error messages.
func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&os.ModeNamedPipe != 0:
		return "FIFO (named pipe)"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeCharDevice != 0:
		return "character device"
	case m&os.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
