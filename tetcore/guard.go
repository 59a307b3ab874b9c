package tetcore

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"unsafe"
)

// A mapped file that shrinks while it is open (truncated, or overwritten
// in place by a shorter file) leaves mapped pages with no file behind
// them: reading one raises SIGBUS, which kills a Go process unless the
// reading goroutine asked for faults to panic instead. Guard and Copy
// make every read of mapped bytes do that and turn the fault into an
// error wrapping ErrChanged. The cost is paid per call (two runtime
// calls and a deferred function), so callers guard whole chunks or runs
// of elements, never single values.

// Guard runs read, which may read bytes of the file's mapping (chunk
// views from ReadChunk or Stored), and returns an error wrapping
// ErrChanged, "file X was truncated while in use", if such a read faults
// because the file shrank. Other panics pass through unchanged. read must
// not start goroutines that read the mapping: the guard is per goroutine.
func (f *File) Guard(read func()) (err error) {
	if !f.mapped {
		read() // caller bytes cannot fault
		return nil
	}
	return guard(f.data, f.path, read)
}

// guard runs read with faults turned into panics, and converts a fault
// at an address inside data, the mapping of path, into an error.
func guard(data []byte, path string, read func()) (err error) {
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

// Copy copies src, bytes of the file's mapping, to dst as the built-in
// copy does, under Guard.
func (f *File) Copy(dst, src []byte) (n int, err error) {
	if !f.mapped {
		return copy(dst, src), nil
	}
	err = f.Guard(func() { n = copy(dst, src) })
	return n, err
}

// faultError converts a memory fault at an address inside data into an
// error; it returns nil for anything else.
func faultError(data []byte, path string, r any) error {
	re, ok := r.(runtime.Error)
	if !ok {
		return nil
	}
	fa, ok := re.(interface{ Addr() uintptr })
	if !ok || len(data) == 0 {
		return nil
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	if a := fa.Addr(); a < lo || a >= lo+uintptr(len(data)) {
		return nil
	}
	return fmt.Errorf("tetcore: file %s was truncated while in use: %w", path, ErrChanged)
}
