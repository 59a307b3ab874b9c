package sqlitevt

import (
	"fmt"
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// cCursor is our sqlite3_vtab_cursor: SQLite's header, then the slot.
type cCursor struct {
	base lib.Sqlite3_vtab_cursor
	obj  unsafe.Pointer // *boundCursor, also in keep
}

// boundCursor is the Go side of one cCursor.
type boundCursor struct {
	impl  Cursor
	step  Stepper // impl, when it implements Stepper
	table *boundTable
	vals  []Value // Filter arguments, reused
	res   Result  // handed to Column, reused (its C buffer too)
	// eof is the cursor's Eof, asked right after each successful Filter
	// and Next (see xEof).
	eof bool
}

func cursorHdr(p uintptr) *cCursor    { return (*cCursor)(cptr(p)) }
func cursorOf(p uintptr) *boundCursor { return (*boundCursor)(cursorHdr(p).obj) }

// failCursor reports err through pVtab->zErrMsg of the cursor's table.
func failCursor(tls *libc.TLS, pCur uintptr, err error) int32 {
	return setVtabErr(tls, cursorHdr(pCur).base.FpVtab, err)
}

func xOpen(tls *libc.TLS, pVtab, ppCursor uintptr) int32 {
	bt := tableOf(pVtab)
	cur, err := bt.impl.Open()
	if err != nil {
		return setVtabErr(tls, pVtab, err)
	}
	p := cAlloc(tls, unsafe.Sizeof(cCursor{}))
	if p == 0 {
		cur.Close()
		return lib.SQLITE_NOMEM
	}
	bc := &boundCursor{impl: cur, table: bt}
	bc.step, _ = cur.(Stepper)
	keepAlive(unsafe.Pointer(bc))
	h := cursorHdr(p)
	h.base.FpVtab = pVtab
	h.obj = unsafe.Pointer(bc)
	setOut(ppCursor, p)
	return lib.SQLITE_OK
}

// xClose closes the Go cursor and frees the C memory, even if Close
// panics (SQLite ignores xClose's result).
func xClose(tls *libc.TLS, pCur uintptr) int32 {
	h := cursorHdr(pCur)
	bc := (*boundCursor)(h.obj)
	defer func() {
		bc.res.tls = tls
		bc.res.free()
		h.obj = nil
		letGo(unsafe.Pointer(bc))
		lib.Xsqlite3_free(tls, pCur)
	}()
	bc.impl.Close()
	return lib.SQLITE_OK
}

// xFilter starts a scan; where names the callback running, for
// safeFilter's recover.
func xFilter(tls *libc.TLS, pCur uintptr, idxNum int32, idxStr uintptr, argc int32, argv uintptr, where *string) int32 {
	bc := cursorOf(pCur)
	bc.vals = bc.vals[:0]
	if argc > 0 {
		for _, v := range unsafe.Slice((*uintptr)(cptr(argv)), argc) {
			if l := bc.table.inList; l != nil {
				list, ok, err := inList(tls, v, l)
				if err != nil {
					return failCursor(tls, pCur, err)
				}
				if ok {
					bc.vals = append(bc.vals, list)
					continue
				}
			}
			bc.vals = append(bc.vals, goValue(tls, v))
		}
	}
	if err := bc.impl.Filter(int(idxNum), goString(idxStr), bc.vals); err != nil {
		return failCursor(tls, pCur, err)
	}
	*where = "xEof"
	bc.eof = bc.impl.Eof()
	return lib.SQLITE_OK
}

// inList reads v whole if it is an IN list SQLite passes all at once
// (sqlite3_vtab_in_first fails with SQLITE_ERROR on any other value).
// A list from a subquery may be as long as a table, so its copy is
// checked against the table's limit as it grows, at every further MiB.
// A read that fails part way (out of memory, an I/O error in the
// subquery) is an error: a list cut short would silently give a wrong
// answer.
func inList(tls *libc.TLS, v uintptr, t InLister) (InList, bool, error) {
	const ptr = int(unsafe.Sizeof(uintptr(0)))
	pp := tls.Alloc(ptr) // the out-parameter, in C memory
	defer tls.Free(ptr)
	out := (*uintptr)(cptr(pp))
	rc := lib.Xsqlite3_vtab_in_first(tls, v, pp)
	switch rc {
	case lib.SQLITE_ERROR:
		return nil, false, nil // not an IN list
	case lib.SQLITE_OK, lib.SQLITE_DONE:
	default:
		return nil, false, inListError(tls, rc)
	}
	l := InList{}
	var bytes int64
	check := int64(1 << 20)
	for rc == lib.SQLITE_OK && *out != 0 {
		x := goValue(tls, *out)
		l = append(l, x)
		if bytes += valueBytes(x); bytes > check {
			check = bytes + 1<<20
			if err := t.InListFits(int64(len(l)), bytes); err != nil {
				return nil, false, err
			}
		}
		rc = lib.Xsqlite3_vtab_in_next(tls, v, pp)
	}
	if rc != lib.SQLITE_OK && rc != lib.SQLITE_DONE {
		return nil, false, inListError(tls, rc)
	}
	return l, true, nil
}

// inListError is a failed read of an IN list's values.
func inListError(tls *libc.TLS, rc int32) error {
	return fmt.Errorf("sqlitevt: reading an IN list: %s (rc=%d)", libc.GoString(lib.Xsqlite3_errstr(tls, rc)), rc)
}

// valueBytes estimates the memory of one value of an IN list read
// whole: its interface and what it boxes.
func valueBytes(v Value) int64 {
	switch x := v.(type) {
	case string:
		return 32 + int64(len(x))
	case []byte:
		return 40 + int64(len(x))
	}
	return 24
}

// The per-row callbacks xNext and xColumn recover in their own bodies:
// one deferred recover per call, no extra call.

// xNext moves to the next row and asks whether it is past the end.
func xNext(tls *libc.TLS, pCur uintptr) (rc int32) {
	bc := cursorOf(pCur)
	where := "xNext"
	defer bc.recoverCursor(tls, &where, pCur, &rc)
	if bc.step != nil {
		eof, err := bc.step.Step()
		if err != nil {
			return failCursor(tls, pCur, err)
		}
		bc.eof = eof
		return lib.SQLITE_OK
	}
	if err := bc.impl.Next(); err != nil {
		return failCursor(tls, pCur, err) // SQLite reports zErrMsg
	}
	where = "xEof"
	bc.eof = bc.impl.Eof()
	return lib.SQLITE_OK
}

// xEof reports the Eof that xFilter or xNext asked: SQLite calls xEof
// only right after one of them succeeded. Asking there puts Eof under
// their recover, where a panic can fail the statement (xEof itself
// cannot fail: ending the scan instead would silently truncate the
// result), and leaves xEof one load, without a defer.
func xEof(tls *libc.TLS, pCur uintptr) int32 {
	if cursorOf(pCur).eof {
		return 1
	}
	return 0
}

// xColumn has the cursor write column col of the current row into ctx.
func xColumn(tls *libc.TLS, pCur, ctx uintptr, col int32) (rc int32) {
	bc := cursorOf(pCur)
	r := &bc.res
	r.tls, r.ctx = tls, ctx
	defer bc.recoverColumn(&rc)
	if err := bc.impl.Column(r, int(col)); err != nil {
		r.Error(err)
		return lib.SQLITE_ERROR
	}
	return lib.SQLITE_OK
}

func xRowid(tls *libc.TLS, pCur, pRowid uintptr) int32 {
	id, err := cursorOf(pCur).impl.Rowid()
	if err != nil {
		return failCursor(tls, pCur, err)
	}
	*(*int64)(cptr(pRowid)) = id
	return lib.SQLITE_OK
}
