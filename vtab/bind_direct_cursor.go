package vtab

import (
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
	"modernc.org/sqlite/vtab"
)

// boundCursor is the Go side of one cCursor. cells is set for a cells
// cursor, whose per-row callbacks are called directly (no interface, no
// boxing); other cursors go through vtab.Cursor.
type boundCursor struct {
	impl  vtab.Cursor
	cells *cellsCursor
	table *boundTable
	vals  []vtab.Value // Filter arguments, reused
	// scratch is C memory (sqlite3_malloc) that text handed to SQLite is
	// copied into (SQLite copies it again: SQLITE_TRANSIENT); freed by xClose.
	scratch    uintptr
	scratchCap int
	// fault is a panic recovered in xEof, reported by the next callback
	// that can fail (bind_direct_safe.go).
	fault error
}

func cursorOf(pCur uintptr) *boundCursor { return (*boundCursor)(cursorHdr(pCur).obj) }

// fail reports err through pVtab->zErrMsg of the cursor's table.
func failCursor(tls *libc.TLS, pCur uintptr, err error) int32 {
	setVtabErr(tls, cursorHdr(pCur).base.FpVtab, err)
	return lib.SQLITE_ERROR
}

func xOpen(tls *libc.TLS, pVtab, ppCursor uintptr) int32 {
	bt := tableOf(pVtab)
	cur, err := bt.impl.Open()
	if err != nil {
		setVtabErr(tls, pVtab, err)
		return lib.SQLITE_ERROR
	}
	p := cAlloc(tls, unsafe.Sizeof(cCursor{}))
	if p == 0 {
		cur.Close()
		return lib.SQLITE_NOMEM
	}
	bc := &boundCursor{impl: cur, table: bt}
	bc.cells, _ = cur.(*cellsCursor)
	keepAlive(unsafe.Pointer(bc))
	h := cursorHdr(p)
	h.base.FpVtab = pVtab
	h.obj = unsafe.Pointer(bc)
	*(*uintptr)(cptr(ppCursor)) = p
	return lib.SQLITE_OK
}

// xClose closes the Go cursor, records its scan on the connection and
// frees the C memory.
func xClose(tls *libc.TLS, pCur uintptr) int32 {
	h := cursorHdr(pCur)
	bc := (*boundCursor)(h.obj)
	bc.impl.Close()
	if s, ok := bc.impl.(statser); ok && bc.table.conn != nil {
		if st, ok := s.scanStats(); ok {
			bc.table.conn.record(st)
		}
	}
	if bc.scratch != 0 {
		lib.Xsqlite3_free(tls, bc.scratch)
		bc.scratch, bc.scratchCap = 0, 0
	}
	h.obj = nil
	letGo(unsafe.Pointer(bc))
	lib.Xsqlite3_free(tls, pCur)
	return lib.SQLITE_OK
}

func xFilter(tls *libc.TLS, pCur uintptr, idxNum int32, idxStr uintptr, argc int32, argv uintptr) int32 {
	bc := cursorOf(pCur)
	s := ""
	if idxStr != 0 {
		s = libc.GoString(idxStr)
	}
	bc.vals = bc.vals[:0]
	if argc > 0 {
		for _, v := range unsafe.Slice((*uintptr)(cptr(argv)), argc) {
			if bc.table.inLists != nil {
				l, ok, err := inList(tls, v, bc.table.impl)
				if err != nil {
					return failCursor(tls, pCur, err)
				}
				if ok {
					bc.vals = append(bc.vals, l)
					continue
				}
			}
			bc.vals = append(bc.vals, goValue(tls, v))
		}
	}
	if err := bc.impl.Filter(int(idxNum), s, bc.vals); err != nil {
		return failCursor(tls, pCur, err)
	}
	return lib.SQLITE_OK
}

// inList reads v whole if it is an IN list SQLite passes all at once
// (sqlite3_vtab_in_first fails with SQLITE_ERROR on any other value).
// The copy counts against the memory limit of tbl's session: a list
// from a subquery may be as long as a table.
func inList(tls *libc.TLS, v uintptr, tbl any) (InList, bool, error) {
	pp := tls.Alloc(int(unsafe.Sizeof(uintptr(0)))) // out-parameter in C memory
	defer tls.Free(int(unsafe.Sizeof(uintptr(0))))
	out := (*uintptr)(cptr(pp))
	rc := lib.Xsqlite3_vtab_in_first(tls, v, pp)
	if rc != lib.SQLITE_OK && rc != lib.SQLITE_DONE {
		return nil, false, nil
	}
	l := InList{}
	var bytes int64
	for rc == lib.SQLITE_OK && *out != 0 {
		x := goValue(tls, *out)
		l = append(l, x)
		if bytes += inValueBytes(x); bytes > 1<<20 && len(l)%1024 == 0 {
			if err := inListFits(tbl, int64(len(l)), bytes); err != nil {
				return nil, false, err
			}
		}
		rc = lib.Xsqlite3_vtab_in_next(tls, v, pp)
	}
	return l, true, nil
}

func xNext(tls *libc.TLS, pCur uintptr) (rc int32) {
	defer recoverCursor(tls, "xNext", pCur, &rc) // bind_direct_safe.go
	bc := cursorOf(pCur)
	if bc.fault != nil {
		return failCursor(tls, pCur, bc.fault)
	}
	var err error
	if c := bc.cells; c != nil {
		err = c.Next()
	} else {
		err = bc.impl.Next()
	}
	if err != nil {
		return failCursor(tls, pCur, err) // SQLite reports zErrMsg
	}
	return lib.SQLITE_OK
}

func xEof(tls *libc.TLS, pCur uintptr) int32 {
	bc := cursorOf(pCur)
	var eof bool
	if c := bc.cells; c != nil {
		eof = c.Eof()
	} else {
		eof = bc.impl.Eof()
	}
	if eof {
		return 1
	}
	return 0
}

// xColumn hands column col of the current row to sqlite3_result_*.
func xColumn(tls *libc.TLS, pCur, ctx uintptr, col int32) (rc int32) {
	bc := cursorOf(pCur)
	defer bc.recoverColumn(tls, ctx, &rc) // bind_direct_safe.go
	if bc.fault != nil {
		return bc.resultError(tls, ctx, bc.fault)
	}
	if c := bc.cells; c != nil {
		k, n, f, s, err := c.cell(int(col))
		switch k {
		case cellFloat:
			lib.Xsqlite3_result_double(tls, ctx, f)
		case cellInt:
			lib.Xsqlite3_result_int64(tls, ctx, n)
		case cellText:
			bc.resultText(tls, ctx, s)
		case cellErr:
			return bc.resultError(tls, ctx, err)
		default:
			lib.Xsqlite3_result_null(tls, ctx)
		}
		return lib.SQLITE_OK
	}
	v, err := bc.impl.Column(int(col))
	if err != nil {
		return bc.resultError(tls, ctx, err)
	}
	switch x := v.(type) {
	case nil:
		lib.Xsqlite3_result_null(tls, ctx)
	case int64:
		lib.Xsqlite3_result_int64(tls, ctx, x)
	case float64:
		lib.Xsqlite3_result_double(tls, ctx, x)
	case string:
		bc.resultText(tls, ctx, x)
	case []byte:
		if len(x) == 0 {
			lib.Xsqlite3_result_zeroblob(tls, ctx, 0)
		} else {
			p := bc.copyOut(tls, len(x))
			copy(unsafe.Slice((*byte)(cptr(p)), len(x)), x)
			lib.Xsqlite3_result_blob(tls, ctx, p, int32(len(x)), lib.SQLITE_TRANSIENT)
		}
	case bool:
		lib.Xsqlite3_result_int(tls, ctx, int32(libc.Bool32(x)))
	default:
		lib.Xsqlite3_result_null(tls, ctx)
	}
	return lib.SQLITE_OK
}

// copyOut returns scratch C memory of at least n (≥ 1) bytes.
func (bc *boundCursor) copyOut(tls *libc.TLS, n int) uintptr {
	if n > bc.scratchCap || bc.scratch == 0 {
		if bc.scratch != 0 {
			lib.Xsqlite3_free(tls, bc.scratch)
		}
		c := max(n, 64, 2*bc.scratchCap)
		bc.scratch, bc.scratchCap = lib.Xsqlite3_malloc64(tls, uint64(c)), c
		if bc.scratch == 0 {
			bc.scratchCap = 0
		}
	}
	return bc.scratch
}

// resultText copies s to C memory and hands it to SQLite, which copies it.
func (bc *boundCursor) resultText(tls *libc.TLS, ctx uintptr, s string) {
	p := bc.copyOut(tls, len(s)+1)
	if p == 0 {
		lib.Xsqlite3_result_error_nomem(tls, ctx)
		return
	}
	copy(unsafe.Slice((*byte)(cptr(p)), len(s)), s)
	lib.Xsqlite3_result_text(tls, ctx, p, int32(len(s)), lib.SQLITE_TRANSIENT)
}

// resultError makes the column fail with err's message.
func (bc *boundCursor) resultError(tls *libc.TLS, ctx uintptr, err error) int32 {
	msg := err.Error()
	if p := bc.copyOut(tls, len(msg)+1); p != 0 {
		copy(unsafe.Slice((*byte)(cptr(p)), len(msg)), msg)
		lib.Xsqlite3_result_error(tls, ctx, p, int32(len(msg)))
	} else {
		lib.Xsqlite3_result_error_nomem(tls, ctx)
	}
	return lib.SQLITE_ERROR
}

func xRowid(tls *libc.TLS, pCur, pRowid uintptr) int32 {
	bc := cursorOf(pCur)
	var id int64
	var err error
	if c := bc.cells; c != nil {
		id, err = c.Rowid()
	} else {
		id, err = bc.impl.Rowid()
	}
	if err != nil {
		return failCursor(tls, pCur, err)
	}
	*(*int64)(cptr(pRowid)) = id
	return lib.SQLITE_OK
}
