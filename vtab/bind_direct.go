package vtab

import (
	"fmt"
	"sync"
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
	"modernc.org/sqlite/vtab"
)

// The direct binding: the "tet" module registered with the SQLite C API
// of modernc.org/sqlite/lib (the transpiled SQLite, whose functions take
// a *libc.TLS and pass C pointers as uintptr).
//
// Memory. Everything SQLite dereferences lives in C memory (sqlite3_malloc),
// never in Go memory: the transpiled C code must not be handed Go pointers
// (checkptr, enabled by -race, rejects them, and Go stacks move):
//
//	module   one lib.Sqlite3_module per process, never freed
//	cVtab    sqlite3_vtab header + slot → *boundTable    xConnect … xDisconnect/xDestroy
//	cCursor  sqlite3_vtab_cursor header + slot → *boundCursor   xOpen … xClose
//
// The slot holds a Go pointer the garbage collector does not see (it does
// not scan C memory), so the same pointer is also put in the keep set
// until the C object is freed; Go's collector never moves heap objects,
// so the slot stays valid. Every callback after xConnect/xOpen finds its
// object by reading the slot: no lock, no map, no interface per row.
//
// Connections. The module and tet_last_scan() are created only on the
// connections tetsql opens (see Open in open.go): bindDirect registers
// them on that connection's sqlite3 handle, with a per-connection
// connState as their pAux, which carries the connection's Session. A
// table created on a connection therefore always belongs to that
// connection's session, whatever its arguments say. The module's
// destructor, run when the connection closes, forgets the connState.
// Nothing is registered process-wide: a program's own modernc.org/sqlite
// connections never see the module.

// cVtab is our sqlite3_vtab: SQLite's header, then the slot.
type cVtab struct {
	base lib.Sqlite3_vtab
	obj  unsafe.Pointer // *boundTable, also in keep
}

// cCursor is our sqlite3_vtab_cursor: SQLite's header, then the slot.
type cCursor struct {
	base lib.Sqlite3_vtab_cursor
	obj  unsafe.Pointer // *boundCursor, also in keep
}

// boundTable is the Go side of one cVtab.
type boundTable struct {
	impl    vtab.Table
	conn    *connState
	inLists inLister // the table, if it reads IN lists whole
}

// keep holds every Go object a C slot points at, so that it stays
// alive while SQLite holds the C object. Taken only in xConnect, xOpen,
// xClose and xDisconnect.
var keep = struct {
	sync.Mutex
	m map[unsafe.Pointer]struct{}
}{m: map[unsafe.Pointer]struct{}{}}

func keepAlive(p unsafe.Pointer) {
	keep.Lock()
	keep.m[p] = struct{}{}
	keep.Unlock()
}

func letGo(p unsafe.Pointer) {
	keep.Lock()
	delete(keep.m, p)
	keep.Unlock()
}

// liveObjects reports how many Go objects C slots hold (for tests).
func liveObjects() int {
	keep.Lock()
	defer keep.Unlock()
	return len(keep.m)
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

// cAlloc returns n zeroed bytes from sqlite3_malloc (0 when out of
// memory). Zeroing before any Go store matters: a Go pointer store into
// the slot runs a write barrier that reads the old value.
func cAlloc(tls *libc.TLS, n uintptr) uintptr {
	p := lib.Xsqlite3_malloc64(tls, uint64(n))
	if p != 0 {
		clear(unsafe.Slice((*byte)(cptr(p)), n))
	}
	return p
}

// cString copies s into sqlite3_malloc memory, NUL-terminated (SQLite
// frees such strings with sqlite3_free, e.g. zErrMsg and idxStr).
func cString(tls *libc.TLS, s string) uintptr {
	p := lib.Xsqlite3_malloc64(tls, uint64(len(s))+1)
	if p != 0 {
		b := unsafe.Slice((*byte)(cptr(p)), len(s)+1)
		copy(b, s)
		b[len(s)] = 0
	}
	return p
}

func vtabOf(p uintptr) *cVtab      { return (*cVtab)(cptr(p)) }
func cursorHdr(p uintptr) *cCursor { return (*cCursor)(cptr(p)) }
func tableOf(p uintptr) *boundTable {
	return (*boundTable)(vtabOf(p).obj)
}

// setVtabErr replaces pVtab->zErrMsg, which SQLite reports and frees
// after the failing callback returns.
func setVtabErr(tls *libc.TLS, pVtab uintptr, err error) {
	if pVtab == 0 {
		return
	}
	v := vtabOf(pVtab)
	if v.base.FzErrMsg != 0 {
		lib.Xsqlite3_free(tls, v.base.FzErrMsg)
	}
	v.base.FzErrMsg = cString(tls, err.Error())
}

var (
	directOnce   sync.Once
	directModule uintptr // *lib.Sqlite3_module
	zModuleName  uintptr
	zLastScan    uintptr
)

// registerDirect builds the module; bindDirect puts it on a connection.
func registerDirect() error {
	tls := libc.NewTLS()
	defer tls.Close()
	if rc := lib.Xsqlite3_initialize(tls); rc != lib.SQLITE_OK {
		return fmt.Errorf("tet: sqlite3_initialize: rc=%d", rc)
	}
	p := cAlloc(tls, unsafe.Sizeof(lib.Sqlite3_module{}))
	zModuleName, zLastScan = cString(tls, ModuleName), cString(tls, "tet_last_scan")
	if p == 0 || zModuleName == 0 || zLastScan == 0 {
		return fmt.Errorf("tet: out of memory")
	}
	m := (*lib.Sqlite3_module)(cptr(p))
	m.FiVersion = 1
	// Every entry is a panic-safe wrapper (bind_direct_safe.go).
	m.FxCreate = cfunc(safeCreate) // distinct from xConnect: no eponymous table
	m.FxConnect = cfunc(safeConnect)
	m.FxBestIndex = cfunc(safeBestIndex)
	m.FxDisconnect = cfunc(safeDisconnect)
	m.FxDestroy = cfunc(safeDestroy)
	m.FxOpen = cfunc(safeOpen)
	m.FxClose = cfunc(safeClose)
	m.FxFilter = cfunc(safeFilter)
	m.FxNext = cfunc(xNext) // recovers itself
	m.FxEof = cfunc(safeEof)
	m.FxColumn = cfunc(xColumn) // recovers itself
	m.FxRowid = cfunc(safeRowid)
	m.FxUpdate = cfunc(safeUpdate)
	directModule = p
	return nil
}

// bindDirect creates the module and tet_last_scan() on the connection db,
// which the caller has just opened and nobody else uses yet; its tables
// belong to session s (nil: none).
func bindDirect(db uintptr, s *Session) error {
	tls := libc.NewTLS()
	defer tls.Close()
	cs := newConnState(s)
	// On failure SQLite itself calls the destructor, which forgets cs.
	if rc := lib.Xsqlite3_create_module_v2(tls, db, zModuleName, directModule, cs.id, cfunc(connDestroy)); rc != lib.SQLITE_OK {
		return fmt.Errorf("tet: sqlite3_create_module_v2: %s", libc.GoString(lib.Xsqlite3_errmsg(tls, db)))
	}
	if rc := lib.Xsqlite3_create_function_v2(tls, db, zLastScan, 0, lib.SQLITE_UTF8, cs.id, cfunc(safeLastScan), 0, 0, 0); rc != lib.SQLITE_OK {
		return fmt.Errorf("tet: sqlite3_create_function_v2: %s", libc.GoString(lib.Xsqlite3_errmsg(tls, db)))
	}
	return nil
}

// xCreate and xConnect both connect: a tet table owns no storage.
func xCreate(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) int32 {
	return connectDirect(tls, db, pAux, argc, argv, ppVtab, pzErr)
}

func xConnect(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) int32 {
	return connectDirect(tls, db, pAux, argc, argv, ppVtab, pzErr)
}

func connectDirect(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) int32 {
	args := make([]string, argc)
	for i, p := range unsafe.Slice((*uintptr)(cptr(argv)), argc) {
		args[i] = libc.GoString(p)
	}
	ctx := vtab.NewContext(func(schema string) error {
		z := cString(tls, schema)
		if z == 0 {
			return fmt.Errorf("out of memory")
		}
		defer lib.Xsqlite3_free(tls, z)
		if rc := lib.Xsqlite3_declare_vtab(tls, db, z); rc != lib.SQLITE_OK {
			return fmt.Errorf("declare_vtab: %s", libc.GoString(lib.Xsqlite3_errmsg(tls, db)))
		}
		return nil
	})
	cs := lookupConn(pAux)
	var sess *Session
	if cs != nil {
		sess = cs.session
	}
	tbl, err := connect(ctx, args, sess)
	if err != nil {
		if pzErr != 0 {
			*(*uintptr)(cptr(pzErr)) = cString(tls, err.Error())
		}
		return lib.SQLITE_ERROR
	}
	p := cAlloc(tls, unsafe.Sizeof(cVtab{}))
	if p == 0 {
		tbl.Disconnect()
		return lib.SQLITE_NOMEM
	}
	bt := &boundTable{impl: tbl, conn: cs}
	bt.inLists, _ = tbl.(inLister)
	keepAlive(unsafe.Pointer(bt))
	vtabOf(p).obj = unsafe.Pointer(bt)
	*(*uintptr)(cptr(ppVtab)) = p
	return lib.SQLITE_OK
}

func xDisconnect(tls *libc.TLS, pVtab uintptr) int32 { return dropTable(tls, pVtab, false) }
func xDestroy(tls *libc.TLS, pVtab uintptr) int32    { return dropTable(tls, pVtab, true) }

// dropTable releases the table and frees its C object.
func dropTable(tls *libc.TLS, pVtab uintptr, destroy bool) int32 {
	v := vtabOf(pVtab)
	bt := (*boundTable)(v.obj)
	if destroy {
		bt.impl.Destroy()
	} else {
		bt.impl.Disconnect()
	}
	v.obj = nil
	letGo(unsafe.Pointer(bt))
	if v.base.FzErrMsg != 0 {
		lib.Xsqlite3_free(tls, v.base.FzErrMsg)
	}
	lib.Xsqlite3_free(tls, pVtab)
	return lib.SQLITE_OK
}
