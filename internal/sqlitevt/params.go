package sqlitevt

import (
	"errors"
	"fmt"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// Parameters returns the parameters of the first statement of query by
// index, as SQLite numbers and names them (sqlite3_bind_parameter_name):
// element i-1 is parameter i, ":x", "@x", "$x" or "?N" as written, ""
// for an anonymous "?". It prepares and finalizes the statement without
// running it. The connection must be idle and used by the caller only.
func (h Handle) Parameters(query string) ([]string, error) {
	if h.db == 0 {
		return nil, errors.New("sqlitevt: parameters: no connection")
	}
	tls := libc.NewTLS()
	defer tls.Close()
	z := cString(tls, query)
	if z == 0 {
		return nil, errors.New("sqlitevt: parameters: out of memory")
	}
	defer lib.Xsqlite3_free(tls, z)
	pp := tls.Alloc(8)
	defer tls.Free(8)
	setOut(pp, 0)
	if rc := lib.Xsqlite3_prepare_v2(tls, h.db, z, -1, pp, 0); rc != lib.SQLITE_OK {
		return nil, fmt.Errorf("sqlitevt: parameters: %s", h.errmsg(tls))
	}
	stmt := *(*uintptr)(cptr(pp))
	if stmt == 0 { // blanks or a comment only
		return nil, nil
	}
	defer lib.Xsqlite3_finalize(tls, stmt)
	n := int(lib.Xsqlite3_bind_parameter_count(tls, stmt))
	names := make([]string, n)
	for i := range n {
		names[i] = goString(lib.Xsqlite3_bind_parameter_name(tls, stmt, int32(i+1)))
	}
	return names, nil
}
