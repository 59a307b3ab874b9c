package sqlitevt

import (
	"fmt"
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// CreateFunction registers the scalar SQL function name taking nArg
// arguments (-1: any number) on the connection, with body f; SQLite
// forgets it when the connection closes. A panic in f becomes the
// statement's error (a [*PanicError]). SQLite takes it as
// non-deterministic, so it is called again wherever it appears.
func (h Handle) CreateFunction(name string, nArg int, f Func) error {
	tls := libc.NewTLS()
	defer tls.Close()
	z := cString(tls, name)
	if z == 0 {
		return fmt.Errorf("sqlitevt: function %s: out of memory", name)
	}
	defer lib.Xsqlite3_free(tls, z)
	id := newID(function{name, f})
	// On failure SQLite itself calls the destructor, which forgets id.
	if rc := lib.Xsqlite3_create_function_v2(tls, h.db, z, int32(nArg), lib.SQLITE_UTF8, id, cfunc(xFunc), 0, 0, cfunc(xFuncDestroy)); rc != lib.SQLITE_OK {
		return fmt.Errorf("sqlitevt: sqlite3_create_function_v2 %s: %s", name, h.errmsg(tls))
	}
	return nil
}

// xFunc runs the Func whose id is the function's user data.
func xFunc(tls *libc.TLS, ctx uintptr, argc int32, argv uintptr) {
	r := &Result{tls: tls, ctx: ctx}
	fn, _ := lookupID(lib.Xsqlite3_user_data(tls, ctx)).(function)
	defer func() {
		if p := recover(); p != nil {
			r.Error(&PanicError{Where: fn.name, Value: p})
		}
		r.free()
	}()
	if fn.f == nil {
		r.Null()
		return
	}
	var args []Value
	if argc > 0 {
		args = make([]Value, argc)
		for i, v := range unsafe.Slice((*uintptr)(cptr(argv)), argc) {
			args[i] = goValue(tls, v)
		}
	}
	if err := fn.f(r, args); err != nil {
		r.Error(err)
	}
}

// function is a registered Func and its SQL name.
type function struct {
	name string
	f    Func
}

// xFuncDestroy forgets a function when SQLite drops it.
func xFuncDestroy(tls *libc.TLS, id uintptr) { forgetID(id) }
