package scan

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tetsql/tetsql/array"
)

// sniff returns the format of the regular file at path, recognised by
// its first array.SniffLen bytes. Only regular files are read (see
// array.OpenRegular).
func sniff(formats []array.Format, path string) (array.Format, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return sniffDir(formats, path)
	}
	fh, _, err := array.OpenRegular(path)
	if err != nil {
		return nil, fmt.Errorf("tet: %w", err)
	}
	defer fh.Close()
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
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name()
	}
	// Name what was tried: a damaged file of a known format (a .tet file
	// whose magic was overwritten) lands here too.
	return nil, fmt.Errorf("tet: %s: %w (its first bytes match none of: %s)", path, array.ErrUnknownFormat, strings.Join(names, ", "))
}

// sniffDir returns the format whose files can be directories and that
// recognises the directory at path.
func sniffDir(formats []array.Format, path string) (array.Format, error) {
	for _, f := range formats {
		if d, ok := f.(array.DirFormat); ok && d.SniffDir(path) {
			return f, nil
		}
	}
	return nil, fmt.Errorf("tet: %s is a directory, not a file of a known format (a Blosc2 sparse frame holds chunks.b2frame): %w", path, array.ErrNotRegular)
}

// Sniff returns the format of the file (or format directory) at path as
// Open would choose it, without opening it: array.ErrUnknownFormat when
// no format recognises it.
func (r *Registry) Sniff(path string) (array.Format, error) { return sniff(r.formats, path) }
