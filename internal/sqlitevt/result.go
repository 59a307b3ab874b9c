package sqlitevt

import (
	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// Result is where a column value or a function's result is written
// (sqlite3_result_*). It is valid only during the Column or Func call it
// is handed to. The last call of its methods wins.
type Result struct {
	tls *libc.TLS
	ctx uintptr // sqlite3_context*
	// buf is C memory that text is copied into before SQLite copies it
	// again (SQLITE_TRANSIENT): Go memory must not be handed to C. A
	// cursor's Result reuses it from row to row; it is freed with the
	// cursor (or, for a function, after the call).
	buf    uintptr
	bufCap int
}

// Int64 makes the result the INTEGER n.
func (r *Result) Int64(n int64) { lib.Xsqlite3_result_int64(r.tls, r.ctx, n) }

// Float64 makes the result the REAL f (SQLite stores a NaN as NULL).
func (r *Result) Float64(f float64) { lib.Xsqlite3_result_double(r.tls, r.ctx, f) }

// Null makes the result NULL.
func (r *Result) Null() { lib.Xsqlite3_result_null(r.tls, r.ctx) }

// Text makes the result the TEXT s (copied).
func (r *Result) Text(s string) {
	p := r.scratch(len(s) + 1)
	if p == 0 {
		lib.Xsqlite3_result_error_nomem(r.tls, r.ctx)
		return
	}
	copy(cBytes(p, len(s)), s)
	lib.Xsqlite3_result_text(r.tls, r.ctx, p, int32(len(s)), lib.SQLITE_TRANSIENT)
}

// Blob makes the result the BLOB b (copied).
func (r *Result) Blob(b []byte) {
	if len(b) == 0 {
		lib.Xsqlite3_result_zeroblob(r.tls, r.ctx, 0)
		return
	}
	p := r.scratch(len(b))
	if p == 0 {
		lib.Xsqlite3_result_error_nomem(r.tls, r.ctx)
		return
	}
	copy(cBytes(p, len(b)), b)
	lib.Xsqlite3_result_blob(r.tls, r.ctx, p, int32(len(b)), lib.SQLITE_TRANSIENT)
}

// Value writes v: nil, int64, float64, string, []byte or bool (as 0 or
// 1); any other type is NULL. It is for values already held as
// interfaces; a cursor computing its values writes them with the typed
// methods, which box nothing.
func (r *Result) Value(v Value) {
	switch x := v.(type) {
	case int64:
		r.Int64(x)
	case float64:
		r.Float64(x)
	case string:
		r.Text(x)
	case []byte:
		r.Blob(x)
	case bool:
		if x {
			r.Int64(1)
		} else {
			r.Int64(0)
		}
	default:
		r.Null()
	}
}

// Error makes the call fail with err's message.
func (r *Result) Error(err error) {
	msg := err.Error()
	if p := r.scratch(len(msg) + 1); p != 0 {
		copy(cBytes(p, len(msg)), msg)
		lib.Xsqlite3_result_error(r.tls, r.ctx, p, int32(len(msg)))
	} else {
		lib.Xsqlite3_result_error_nomem(r.tls, r.ctx)
	}
}

// scratch returns C memory of at least n (≥ 1) bytes in r.buf.
func (r *Result) scratch(n int) uintptr {
	if n > r.bufCap || r.buf == 0 {
		old := r.bufCap
		r.free()
		c := max(n, 64, 2*old)
		if r.buf = lib.Xsqlite3_malloc64(r.tls, uint64(c)); r.buf != 0 {
			r.bufCap = c
		}
	}
	return r.buf
}

// free releases r.buf.
func (r *Result) free() {
	if r.buf != 0 {
		lib.Xsqlite3_free(r.tls, r.buf)
	}
	r.buf, r.bufCap = 0, 0
}
