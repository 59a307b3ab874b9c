package tetsql

import "github.com/tetsql/tetsql/array"

// UseFile calls fn with the file at path as the driver's connections
// read it: the source their tables share, opened (read-only) if no
// table holds it yet and released when fn returns. The shell verifies
// files this way, through the mapping its queries use.
func UseFile(path string, fn func(array.Source) error) error {
	h, err := registry.Open(path)
	if err != nil {
		return err
	}
	defer h.Close()
	return fn(h.Source().Underlying())
}
