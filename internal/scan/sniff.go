package scan

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tetsql/tetsql/array"
)

// sniff returns the format of the regular file at path, recognised by
// its first array.SniffLen bytes. Only regular files are read: a FIFO,
// socket, device or directory is refused (array.ErrNotRegular) before
// anything could block on it. The path is checked with stat first and
// opened non-blocking, and the opened file is checked again, so that a
// FIFO swapped in between cannot hang the caller.
func sniff(formats []array.Format, path string) (array.Format, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("tet: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st)
	}
	fh, err := openNonBlocking(path)
	if err != nil {
		return nil, fmt.Errorf("tet: %w", err)
	}
	defer fh.Close()
	if st, err = fh.Stat(); err != nil {
		return nil, fmt.Errorf("tet: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st)
	}
	head := make([]byte, array.SniffLen)
	n, err := io.ReadFull(fh, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("tet: read %s: %w", path, err)
	}
	for _, f := range formats {
		if f.Sniff(head[:n]) {
			return f, nil
		}
	}
	return nil, fmt.Errorf("tet: %s: %w", path, array.ErrUnknownFormat)
}

func notRegular(path string, st os.FileInfo) error {
	return fmt.Errorf("tet: %s is a %s: %w", path, kindOf(st.Mode()), array.ErrNotRegular)
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
