package sqlitevt

import (
	"sync"
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// C memory and the Go objects C memory points at (see the package doc).

// keep holds every Go object a C slot points at, so that it stays alive
// while SQLite holds the C object, and every module and function SQLite
// knows by an id. Taken only when objects are made and freed, never per
// row.
var keep = struct {
	sync.Mutex
	slots map[unsafe.Pointer]struct{} // tables and cursors
	ids   map[uintptr]any             // modules and functions, by pAux / user data
	next  uintptr
}{slots: map[unsafe.Pointer]struct{}{}, ids: map[uintptr]any{}}

func keepAlive(p unsafe.Pointer) {
	keep.Lock()
	keep.slots[p] = struct{}{}
	keep.Unlock()
}

func letGo(p unsafe.Pointer) {
	keep.Lock()
	delete(keep.slots, p)
	keep.Unlock()
}

// newID keeps x under a new id, which SQLite carries as a pAux or user
// data pointer (an integer, never dereferenced).
func newID(x any) uintptr {
	keep.Lock()
	defer keep.Unlock()
	keep.next++
	keep.ids[keep.next] = x
	return keep.next
}

func lookupID(id uintptr) any {
	keep.Lock()
	defer keep.Unlock()
	return keep.ids[id]
}

func forgetID(id uintptr) {
	keep.Lock()
	delete(keep.ids, id)
	keep.Unlock()
}

// Live reports how many modules, functions, tables and cursors SQLite
// holds through the binding. Once every connection is closed it is 0;
// tests use it to check that nothing leaks.
func Live() int {
	keep.Lock()
	defer keep.Unlock()
	return len(keep.slots) + len(keep.ids)
}

// cfunc turns a top-level Go function into the function pointer the
// transpiled C code calls (as modernc.org/sqlite's own cFuncPointer: a
// func value is a pointer to a static funcval that never moves). Never
// use it on a closure.
func cfunc[T any](f T) uintptr { return *(*uintptr)(unsafe.Pointer(&struct{ f T }{f})) }

// cptr turns the address of C memory, which the C API passes as a
// uintptr, into a pointer. Only ever use it on C memory (never on the
// address of a Go object: the collector would not know about it). It
// reinterprets the bits rather than converting, which is the same thing
// for C memory and keeps vet's unsafeptr check meaningful elsewhere.
func cptr(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

// cBytes is the n bytes of C memory at p as a slice.
func cBytes(p uintptr, n int) []byte { return unsafe.Slice((*byte)(cptr(p)), n) }

// cAlloc returns n zeroed bytes from sqlite3_malloc (0 when out of
// memory). Zeroing before any Go store matters: a Go pointer store into
// a slot runs a write barrier that reads the old value.
func cAlloc(tls *libc.TLS, n uintptr) uintptr {
	p := lib.Xsqlite3_malloc64(tls, uint64(n))
	if p != 0 {
		clear(cBytes(p, int(n)))
	}
	return p
}

// cString copies s into sqlite3_malloc memory, NUL-terminated (SQLite
// frees such strings with sqlite3_free, e.g. zErrMsg and idxStr).
func cString(tls *libc.TLS, s string) uintptr {
	p := lib.Xsqlite3_malloc64(tls, uint64(len(s))+1)
	if p != 0 {
		b := cBytes(p, len(s)+1)
		copy(b, s)
		b[len(s)] = 0
	}
	return p
}

// setOut stores v in the uintptr out-parameter at C address pp.
func setOut(pp, v uintptr) { *(*uintptr)(cptr(pp)) = v }

// goString reads the NUL-terminated C string at p ("" for 0).
func goString(p uintptr) string {
	if p == 0 {
		return ""
	}
	return libc.GoString(p)
}
