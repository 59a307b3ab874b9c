package mapfile

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"unsafe"

	"github.com/tetsql/tetsql/array"
)

// A mapped file that shrinks while it is open (truncated, or overwritten
// in place by a shorter file) leaves mapped pages with no file behind
// them: reading one raises SIGBUS, which kills a Go process unless the
// reading goroutine asked for faults to panic instead. Guard and Copy do
// that and turn the fault into an error. The cost is paid per call (two
// runtime calls and a deferred function), so callers guard whole chunks,
// never single values.

// Guard runs read, which may read the mapping, and returns an error
// wrapping array.ErrChanged ("file X was truncated while in use") if such
// a read faults. Other panics pass through unchanged. read must not start
// goroutines that read the mapping: the guard is per goroutine.
func (f *File) Guard(read func()) error {
	if !f.mapped {
		read() // caller bytes (FromBytes) or an empty file: nothing can fault
		return nil
	}
	return Guard(f.data, f.path, read)
}

// Copy copies src, bytes of the mapping, to dst as the built-in copy
// does, under Guard.
func (f *File) Copy(dst, src []byte) (n int, err error) {
	err = f.Guard(func() { n = copy(dst, src) })
	return n, err
}

// Guard runs read with memory faults turned into panics, and converts a
// fault at an address inside data, the mapping of the file at path, into
// an error wrapping array.ErrChanged. For a format that maps files
// without a File (a nil data guards nothing: read runs bare).
func Guard(data []byte, path string, read func()) (err error) {
	if len(data) == 0 {
		read()
		return nil
	}
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if e := faultError(data, path, r); e != nil {
				err = e
				return
			}
			panic(r)
		}
	}()
	read()
	return nil
}

// faultError converts a memory fault at an address inside data into an
// error; it returns nil for anything else.
func faultError(data []byte, path string, r any) error {
	re, ok := r.(runtime.Error)
	if !ok {
		return nil
	}
	fa, ok := re.(interface{ Addr() uintptr })
	if !ok {
		return nil
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	if a := fa.Addr(); a < lo || a >= lo+uintptr(len(data)) {
		return nil
	}
	return fmt.Errorf("file %s was truncated while in use: %w", path, array.ErrChanged)
}
