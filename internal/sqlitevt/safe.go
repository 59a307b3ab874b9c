package sqlitevt

import (
	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// Panic-safe entry points: the module points SQLite at these (the
// per-row xNext and xColumn recover in their own bodies, and xEof runs
// no code of the table; see cursor.go). A panic must not unwind through the transpiled C code,
// which holds locks: it becomes SQLITE_ERROR with the error the table's
// PanicHandler makes of it as the statement's message.

// panicked is the error a panic p in callback where of bt becomes.
func (bt *boundTable) panicked(where string, p any) error {
	if bt != nil {
		if h, ok := bt.impl.(PanicHandler); ok {
			return h.Panicked(where, p)
		}
	}
	return &PanicError{Where: where, Value: p}
}

func safeCreate(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) (rc int32) {
	defer recoverConnect(tls, "xCreate", pAux, pzErr, &rc)
	return connect(tls, true, db, pAux, argc, argv, ppVtab, pzErr)
}

func safeConnect(tls *libc.TLS, db, pAux uintptr, argc int32, argv, ppVtab, pzErr uintptr) (rc int32) {
	defer recoverConnect(tls, "xConnect", pAux, pzErr, &rc)
	return connect(tls, false, db, pAux, argc, argv, ppVtab, pzErr)
}

// recoverConnect reports a panic through *pzErr, made by the module's
// PanicHandler if it has one.
func recoverConnect(tls *libc.TLS, where string, pAux, pzErr uintptr, rc *int32) {
	if p := recover(); p != nil {
		var err error = &PanicError{Where: where, Value: p}
		if h, ok := lookupID(pAux).(PanicHandler); ok {
			err = h.Panicked(where, p)
		}
		if pzErr != 0 {
			setOut(pzErr, cString(tls, err.Error()))
		}
		*rc = lib.SQLITE_ERROR
	}
}

// recoverVtab reports a panic through pVtab->zErrMsg.
func recoverVtab(tls *libc.TLS, where string, pVtab uintptr, rc *int32) {
	if p := recover(); p != nil {
		*rc = setVtabErr(tls, pVtab, tableOf(pVtab).panicked(where, p))
	}
}

func safeBestIndex(tls *libc.TLS, pVtab, pInfo uintptr) (rc int32) {
	defer recoverVtab(tls, "xBestIndex", pVtab, &rc)
	return xBestIndex(tls, pVtab, pInfo)
}

func safeUpdate(tls *libc.TLS, pVtab uintptr, argc int32, argv, pRowid uintptr) (rc int32) {
	defer recoverVtab(tls, "xUpdate", pVtab, &rc)
	return xUpdate(tls, pVtab, argc, argv, pRowid)
}

func safeOpen(tls *libc.TLS, pVtab, ppCursor uintptr) (rc int32) {
	defer recoverVtab(tls, "xOpen", pVtab, &rc)
	return xOpen(tls, pVtab, ppCursor)
}

// safeDisconnect and safeDestroy drop a panic of the table's own
// Disconnect or Destroy (dropTable has freed the C object anyway):
// SQLite forgets the table whatever they return.
func safeDisconnect(tls *libc.TLS, pVtab uintptr) int32 { return safeDrop(tls, pVtab, false) }
func safeDestroy(tls *libc.TLS, pVtab uintptr) int32    { return safeDrop(tls, pVtab, true) }

func safeDrop(tls *libc.TLS, pVtab uintptr, destroy bool) (rc int32) {
	defer func() {
		if recover() != nil {
			rc = lib.SQLITE_OK
		}
	}()
	return dropTable(tls, pVtab, destroy)
}

// safeClose drops a panic of the cursor's Close (xClose has freed the C
// memory anyway; SQLite ignores xClose's result).
func safeClose(tls *libc.TLS, pCur uintptr) (rc int32) {
	defer func() {
		if recover() != nil {
			rc = lib.SQLITE_OK
		}
	}()
	return xClose(tls, pCur)
}

// recoverCursor reports a panic in the callback *where through the
// cursor's table.
func (bc *boundCursor) recoverCursor(tls *libc.TLS, where *string, pCur uintptr, rc *int32) {
	if p := recover(); p != nil {
		*rc = failCursor(tls, pCur, bc.table.panicked(*where, p))
	}
}

func safeFilter(tls *libc.TLS, pCur uintptr, idxNum int32, idxStr uintptr, argc int32, argv uintptr) (rc int32) {
	where := "xFilter"
	defer cursorOf(pCur).recoverCursor(tls, &where, pCur, &rc)
	return xFilter(tls, pCur, idxNum, idxStr, argc, argv, &where)
}

func safeRowid(tls *libc.TLS, pCur, pRowid uintptr) (rc int32) {
	where := "xRowid"
	defer cursorOf(pCur).recoverCursor(tls, &where, pCur, &rc)
	return xRowid(tls, pCur, pRowid)
}

// recoverColumn makes a panic in xColumn the column's error.
func (bc *boundCursor) recoverColumn(rc *int32) {
	if p := recover(); p != nil {
		bc.res.Error(bc.table.panicked("xColumn", p))
		*rc = lib.SQLITE_ERROR
	}
}
