package array

import (
	"fmt"
	"os"
)

// OpenRegular opens path read-only for a format (or the engine sniffing
// one) and returns the file and its FileInfo. Only regular files are
// opened: a FIFO, socket, device or directory is refused (ErrNotRegular)
// before anything could block on it. The path is checked with stat
// first and opened non-blocking, and the opened file is checked again,
// so that a FIFO swapped in between cannot hang the caller.
func OpenRegular(path string) (*os.File, os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, notRegular(path, st)
	}
	fh, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	if st, err = fh.Stat(); err != nil {
		fh.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		fh.Close()
		return nil, nil, notRegular(path, st)
	}
	return fh, st, nil
}

func notRegular(path string, st os.FileInfo) error {
	return fmt.Errorf("%s is a %s: %w", path, kindOf(st.Mode()), ErrNotRegular)
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
