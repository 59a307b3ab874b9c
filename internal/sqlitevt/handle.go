package sqlitevt

import (
	"database/sql/driver"
	"fmt"
	"reflect"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// Handle is the sqlite3* handle of a connection modernc.org/sqlite's
// driver opened. The zero Handle is no connection.
type Handle struct{ db uintptr }

// HandleOf returns the handle of c, a connection opened by
// modernc.org/sqlite's database/sql driver.
//
// modernc does not export the handle: its connection keeps it in the
// uintptr field "db", which reflection may read (not write). A modernc
// release that renames the field makes HandleOf fail with an error,
// which the tests catch, rather than binding anything wrong.
func HandleOf(c driver.Conn) (Handle, error) {
	v := reflect.ValueOf(c)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		if f := v.FieldByName("db"); f.IsValid() && f.Kind() == reflect.Uintptr && f.Uint() != 0 {
			return Handle{db: uintptr(f.Uint())}, nil
		}
	}
	return Handle{}, fmt.Errorf("sqlitevt: cannot find the sqlite3 handle of a %T connection", c)
}

// IsZero reports whether h is the zero Handle.
func (h Handle) IsZero() bool { return h.db == 0 }

// Interrupt makes the statement running on the connection stop with
// SQLITE_INTERRUPT (sqlite3_interrupt). Unlike every other call it may
// be made from any goroutine, while the connection is in use; the
// caller must make sure the connection is not closed meanwhile.
func (h Handle) Interrupt() {
	tls := libc.NewTLS()
	defer tls.Close()
	lib.Xsqlite3_interrupt(tls, h.db)
}

// Limit names one of SQLite's run-time limits (sqlite3_limit).
type Limit int32

// The limits tetsql sets.
const (
	LimitLength         Limit = lib.SQLITE_LIMIT_LENGTH          // a string or blob
	LimitSQLLength      Limit = lib.SQLITE_LIMIT_SQL_LENGTH      // a statement's text
	LimitExprDepth      Limit = lib.SQLITE_LIMIT_EXPR_DEPTH      // nesting of an expression
	LimitCompoundSelect Limit = lib.SQLITE_LIMIT_COMPOUND_SELECT // terms of a UNION chain
	LimitVariableNumber Limit = lib.SQLITE_LIMIT_VARIABLE_NUMBER // ?NNN parameters
	LimitFunctionArg    Limit = lib.SQLITE_LIMIT_FUNCTION_ARG    // arguments of one function
	LimitAttached       Limit = lib.SQLITE_LIMIT_ATTACHED        // attached databases
)

// SetLimit sets limit id to v (SQLite clamps it to its compiled maximum;
// a negative v only reads) and returns the previous value.
func (h Handle) SetLimit(id Limit, v int32) int32 {
	tls := libc.NewTLS()
	defer tls.Close()
	return lib.Xsqlite3_limit(tls, h.db, int32(id), v)
}

// errmsg is the connection's last error message.
func (h Handle) errmsg(tls *libc.TLS) string {
	return goString(lib.Xsqlite3_errmsg(tls, h.db))
}
