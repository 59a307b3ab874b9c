package tetcore

import (
	"fmt"
	"path/filepath"

	"github.com/edsrzf/mmap-go"
	"github.com/tetsql/tetsql/array"
)

// Open opens path read-only, maps it into memory once and parses it.
// The file descriptor is closed right away; the mapping lives until Close.
//
// Only regular files are opened: a FIFO, socket, device or directory is
// refused (ErrNotRegular) before anything could block on it. The path is
// checked with stat first and opened non-blocking, and the opened file is
// checked again, so a FIFO swapped in between cannot hang the caller.
func Open(path string, opts ...Option) (*File, error) {
	fh, st, err := array.OpenRegular(path)
	if err != nil {
		return nil, fmt.Errorf("tetcore: %w", err)
	}
	defer fh.Close()
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
