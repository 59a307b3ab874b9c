package tetcore

import (
	"fmt"
	"os"

	"github.com/edsrzf/mmap-go"
)

// Open opens path read-only, maps it into memory once and parses it.
// The file descriptor is closed right away; the mapping lives until Close.
func Open(path string, opts ...Option) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tetcore: %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("tetcore: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("tetcore: %s: not a regular file", path)
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
	f, err := Parse(data, opts...)
	if err != nil {
		if unmap != nil {
			unmap()
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.path, f.unmap = path, unmap
	return f, nil
}
