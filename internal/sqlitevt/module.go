package sqlitevt

import (
	"fmt"
	"sync"
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// The module: one lib.Sqlite3_module in C memory, shared by every
// registration and never freed; each registration's pAux is the id of
// its Go Module.

// cVtab is our sqlite3_vtab: SQLite's header, then the slot.
type cVtab struct {
	base lib.Sqlite3_vtab
	obj  unsafe.Pointer // *boundTable, also in keep
}

// boundTable is the Go side of one cVtab.
type boundTable struct {
	impl   Table
	inList InLister // impl, if it reads IN lists whole
}

func vtabOf(p uintptr) *cVtab       { return (*cVtab)(cptr(p)) }
func tableOf(p uintptr) *boundTable { return (*boundTable)(vtabOf(p).obj) }

var (
	moduleOnce sync.Once
	moduleErr  error
	cModule    uintptr // *lib.Sqlite3_module
	cEponymous uintptr // the same without xCreate: eponymous-only
)

// theModule builds the C module once.
func theModule() (uintptr, error) {
	moduleOnce.Do(func() {
		tls := libc.NewTLS()
		defer tls.Close()
		if rc := lib.Xsqlite3_initialize(tls); rc != lib.SQLITE_OK {
			moduleErr = fmt.Errorf("sqlitevt: sqlite3_initialize: rc=%d", rc)
			return
		}
		p := cAlloc(tls, unsafe.Sizeof(lib.Sqlite3_module{}))
		if p == 0 {
			moduleErr = fmt.Errorf("sqlitevt: out of memory")
			return
		}
		m := (*lib.Sqlite3_module)(cptr(p))
		m.FiVersion = 1
		// Every entry recovers panics (safe.go, and xNext and xColumn in
		// their own bodies; xEof runs no code of the table).
		m.FxCreate = cfunc(safeCreate) // distinct from xConnect: no eponymous table
		m.FxConnect = cfunc(safeConnect)
		m.FxBestIndex = cfunc(safeBestIndex)
		m.FxDisconnect = cfunc(safeDisconnect)
		m.FxDestroy = cfunc(safeDestroy)
		m.FxOpen = cfunc(safeOpen)
		m.FxClose = cfunc(safeClose)
		m.FxFilter = cfunc(safeFilter)
		m.FxNext = cfunc(xNext)
		m.FxEof = cfunc(xEof)
		m.FxColumn = cfunc(xColumn)
		m.FxRowid = cfunc(safeRowid)
		m.FxUpdate = cfunc(safeUpdate)
		cModule = p
		q := cAlloc(tls, unsafe.Sizeof(lib.Sqlite3_module{}))
		if q == 0 {
			moduleErr = fmt.Errorf("sqlitevt: out of memory")
			return
		}
		e := (*lib.Sqlite3_module)(cptr(q))
		*e = *m
		e.FxCreate = 0 // no xCreate: the table exists by the module's name only
		cEponymous = q
	})
	return cModule, moduleErr
}

// CreateModule registers module m under name on the connection, which
// nobody else may use meanwhile. The module exists on this connection
// only; SQLite forgets it when the connection closes.
func (h Handle) CreateModule(name string, m Module) error {
	mod, err := theModule()
	if err != nil {
		return err
	}
	return h.createModule(name, mod, m)
}

// CreateEponymousModule registers module m under name on the connection
// as an eponymous-only module: its one table is named name, exists in
// schema main without CREATE VIRTUAL TABLE (which the module refuses),
// and is used as a table-valued function, name(args) binding the
// arguments to its HIDDEN columns. Only Module.Connect is called, with
// the arguments module name, "main", name.
func (h Handle) CreateEponymousModule(name string, m Module) error {
	if _, err := theModule(); err != nil {
		return err
	}
	return h.createModule(name, cEponymous, m)
}

// createModule registers m under name with the C module mod.
func (h Handle) createModule(name string, mod uintptr, m Module) error {
	tls := libc.NewTLS()
	defer tls.Close()
	z := cString(tls, name)
	if z == 0 {
		return fmt.Errorf("sqlitevt: module %s: out of memory", name)
	}
	defer lib.Xsqlite3_free(tls, z)
	id := newID(m)
	// On failure SQLite itself calls the destructor, which forgets id.
	if rc := lib.Xsqlite3_create_module_v2(tls, h.db, z, mod, id, cfunc(xModuleDestroy)); rc != lib.SQLITE_OK {
		return fmt.Errorf("sqlitevt: sqlite3_create_module_v2 %s: %s", name, h.errmsg(tls))
	}
	return nil
}

// xModuleDestroy forgets a module when its connection closes.
func xModuleDestroy(tls *libc.TLS, id uintptr) { forgetID(id) }

// declarer is the Context of xCreate and xConnect.
type declarer struct {
	tls *libc.TLS
	db  uintptr
}

func (d declarer) Declare(schema string) error {
	z := cString(d.tls, schema)
	if z == 0 {
		return fmt.Errorf("sqlitevt: declare_vtab: out of memory")
	}
	defer lib.Xsqlite3_free(d.tls, z)
	if rc := lib.Xsqlite3_declare_vtab(d.tls, d.db, z); rc != lib.SQLITE_OK {
		return fmt.Errorf("sqlitevt: declare_vtab: %s", Handle{d.db}.errmsg(d.tls))
	}
	return nil
}

// connect runs Create or Connect of the module whose id is pAux and
// binds the table to a new cVtab.
func connect(tls *libc.TLS, create bool, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) int32 {
	m, _ := lookupID(pAux).(Module)
	args := make([]string, argc)
	for i, p := range unsafe.Slice((*uintptr)(cptr(argv)), argc) {
		args[i] = goString(p)
	}
	var t Table
	err := fmt.Errorf("sqlitevt: module of table %v is gone", args)
	if m != nil && create {
		t, err = m.Create(declarer{tls, db}, args)
	} else if m != nil {
		t, err = m.Connect(declarer{tls, db}, args)
	}
	if err != nil {
		if pzErr != 0 {
			setOut(pzErr, cString(tls, err.Error()))
		}
		return lib.SQLITE_ERROR
	}
	p := cAlloc(tls, unsafe.Sizeof(cVtab{}))
	if p == 0 {
		t.Disconnect()
		return lib.SQLITE_NOMEM
	}
	bt := &boundTable{impl: t}
	bt.inList, _ = t.(InLister)
	keepAlive(unsafe.Pointer(bt))
	vtabOf(p).obj = unsafe.Pointer(bt)
	setOut(ppVtab, p)
	return lib.SQLITE_OK
}

// dropTable releases the table and frees its C object; SQLite forgets
// the table whatever happens, so the C object is freed even if the
// table's Disconnect or Destroy panics.
func dropTable(tls *libc.TLS, pVtab uintptr, destroy bool) int32 {
	v := vtabOf(pVtab)
	bt := (*boundTable)(v.obj)
	defer func() {
		v.obj = nil
		letGo(unsafe.Pointer(bt))
		if v.base.FzErrMsg != 0 {
			lib.Xsqlite3_free(tls, v.base.FzErrMsg)
		}
		lib.Xsqlite3_free(tls, pVtab)
	}()
	if destroy {
		bt.impl.Destroy()
	} else {
		bt.impl.Disconnect()
	}
	return lib.SQLITE_OK
}

// setVtabErr replaces pVtab->zErrMsg, which SQLite reports and frees
// after the failing callback returns.
func setVtabErr(tls *libc.TLS, pVtab uintptr, err error) int32 {
	if pVtab != 0 {
		v := vtabOf(pVtab)
		if v.base.FzErrMsg != 0 {
			lib.Xsqlite3_free(tls, v.base.FzErrMsg)
		}
		v.base.FzErrMsg = cString(tls, err.Error())
	}
	return lib.SQLITE_ERROR
}
