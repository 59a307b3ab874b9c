package vtab

import (
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// Panic-safe entry points of the direct binding (see safe.go): the module
// points SQLite at these, and each recovers around the real callback. A
// panic becomes SQLITE_ERROR with "tet: internal error in xName: …" as the
// statement's message. xEof cannot fail, so a panic there is kept on the
// cursor (fault) and reported by the next xColumn, xRowid or xNext:
// ending the scan instead would silently truncate the result.
//
// The per-row entry points (xNext, xEof, xColumn) add a deferred recover
// and a nil check, nothing else; their tests panic inside the aggregate
// cursor's methods (panicPoint there), which go through the same entry
// points.

func safeCreate(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) (rc int32) {
	defer recoverConnect(tls, "xCreate", pzErr, &rc)
	panicPoint("xCreate")
	return xCreate(tls, db, pAux, argc, argv, ppVtab, pzErr)
}

func safeConnect(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) (rc int32) {
	defer recoverConnect(tls, "xConnect", pzErr, &rc)
	panicPoint("xConnect")
	return xConnect(tls, db, pAux, argc, argv, ppVtab, pzErr)
}

func recoverConnect(tls *libc.TLS, where string, pzErr uintptr, rc *int32) {
	if p := recover(); p != nil {
		if pzErr != 0 {
			*(*uintptr)(cptr(pzErr)) = cString(tls, internalError("", where, p).Error())
		}
		*rc = lib.SQLITE_ERROR
	}
}

// recoverVtab reports a panic through pVtab->zErrMsg.
func recoverVtab(tls *libc.TLS, where string, pVtab uintptr, rc *int32) {
	if p := recover(); p != nil {
		err := internalError("", where, p)
		if bt := tableOf(pVtab); bt != nil {
			sessionOf(bt.impl).setErr(err)
		}
		setVtabErr(tls, pVtab, err)
		*rc = lib.SQLITE_ERROR
	}
}

func safeBestIndex(tls *libc.TLS, pVtab, pInfo uintptr) (rc int32) {
	defer recoverVtab(tls, "xBestIndex", pVtab, &rc)
	panicPoint("xBestIndex")
	return xBestIndex(tls, pVtab, pInfo)
}

func safeUpdate(tls *libc.TLS, pVtab uintptr, argc int32, argv, pRowid uintptr) (rc int32) {
	defer recoverVtab(tls, "xUpdate", pVtab, &rc)
	panicPoint("xUpdate")
	return xUpdate(tls, pVtab, argc, argv, pRowid)
}

func safeOpen(tls *libc.TLS, pVtab, ppCursor uintptr) (rc int32) {
	defer recoverVtab(tls, "xOpen", pVtab, &rc)
	panicPoint("xOpen")
	return xOpen(tls, pVtab, ppCursor)
}

// safeDisconnect and safeDestroy free the C object even when the table's
// own Disconnect panics: SQLite forgets the table whatever they return.
func safeDisconnect(tls *libc.TLS, pVtab uintptr) int32 { return safeDrop(tls, pVtab, false) }
func safeDestroy(tls *libc.TLS, pVtab uintptr) int32    { return safeDrop(tls, pVtab, true) }

func safeDrop(tls *libc.TLS, pVtab uintptr, destroy bool) (rc int32) {
	defer func() {
		if recover() != nil {
			rc = lib.SQLITE_OK
			if v := vtabOf(pVtab); v.obj != nil { // the panic came before the frees
				letGo(v.obj)
				v.obj = nil
				if v.base.FzErrMsg != 0 {
					lib.Xsqlite3_free(tls, v.base.FzErrMsg)
				}
				lib.Xsqlite3_free(tls, pVtab)
			}
		}
	}()
	panicPoint("xDisconnect")
	return dropTable(tls, pVtab, destroy)
}

// safeClose frees the cursor's C memory even when its Close panics;
// the panic is dropped (SQLite ignores xClose's result).
func safeClose(tls *libc.TLS, pCur uintptr) (rc int32) {
	defer func() {
		if recover() != nil {
			rc = lib.SQLITE_OK
			h := cursorHdr(pCur)
			if bc := (*boundCursor)(h.obj); bc != nil { // the panic came before the frees
				if bc.scratch != 0 {
					lib.Xsqlite3_free(tls, bc.scratch)
				}
				h.obj = nil
				letGo(unsafe.Pointer(bc))
				lib.Xsqlite3_free(tls, pCur)
			}
		}
	}()
	panicPoint("xClose")
	return xClose(tls, pCur)
}

// recoverCursor reports a panic through the cursor's table, and keeps it
// on the session for the driver (which then returns it as a Go error).
func recoverCursor(tls *libc.TLS, where string, pCur uintptr, rc *int32) {
	if p := recover(); p != nil {
		err := internalError("", where, p)
		if bc := cursorOf(pCur); bc != nil {
			sessionOf(bc.table.impl).setErr(err)
		}
		*rc = failCursor(tls, pCur, err)
	}
}

func safeFilter(tls *libc.TLS, pCur uintptr, idxNum int32, idxStr uintptr, argc int32, argv uintptr) (rc int32) {
	defer recoverCursor(tls, "xFilter", pCur, &rc)
	cursorOf(pCur).fault = nil
	panicPoint("xFilter")
	return xFilter(tls, pCur, idxNum, idxStr, argc, argv)
}

// xNext and xColumn recover in their own bodies (one defer per call on
// the per-row path, no extra call).

// safeEof needs no recover for a cells cursor, whose Eof reads a field;
// other cursors' Eof may run code.
func safeEof(tls *libc.TLS, pCur uintptr) int32 {
	bc := cursorOf(pCur)
	if c := bc.cells; c != nil {
		if c.Eof() {
			return 1
		}
		return 0
	}
	return bc.eofRecovering(tls, pCur)
}

func (bc *boundCursor) eofRecovering(tls *libc.TLS, pCur uintptr) (eof int32) {
	defer func() {
		if p := recover(); p != nil {
			bc.fault = internalError("", "xEof", p)
			sessionOf(bc.table.impl).setErr(bc.fault)
			eof = 0 // not the end: the next call reports the fault
		}
	}()
	if bc.fault != nil {
		return 0
	}
	return xEof(tls, pCur)
}

// recoverColumn makes a panic in xColumn the column's error.
func (bc *boundCursor) recoverColumn(tls *libc.TLS, ctx uintptr, rc *int32) {
	if p := recover(); p != nil {
		err := internalError("", "xColumn", p)
		sessionOf(bc.table.impl).setErr(err)
		*rc = bc.resultError(tls, ctx, err)
	}
}

func safeRowid(tls *libc.TLS, pCur, pRowid uintptr) (rc int32) {
	defer recoverCursor(tls, "xRowid", pCur, &rc)
	if err := cursorOf(pCur).fault; err != nil {
		return failCursor(tls, pCur, err)
	}
	panicPoint("xRowid")
	return xRowid(tls, pCur, pRowid)
}

// safeLastScan is tet_last_scan() with a recover.
func safeLastScan(tls *libc.TLS, ctx uintptr, argc int32, argv uintptr) {
	defer func() {
		if p := recover(); p != nil {
			msg := internalError("", "tet_last_scan", p).Error()
			if z := cString(tls, msg); z != 0 {
				lib.Xsqlite3_result_error(tls, ctx, z, int32(len(msg)))
				lib.Xsqlite3_free(tls, z)
			} else {
				lib.Xsqlite3_result_error_nomem(tls, ctx)
			}
		}
	}()
	panicPoint("tet_last_scan")
	lastScanFunc(tls, ctx, argc, argv)
}
