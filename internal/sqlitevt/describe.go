package sqlitevt

import (
	"errors"
	"fmt"
	"strings"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// Describe returns the result column names and declared types
// (upper-cased, as modernc's driver reports them) of the first statement
// of query, which it prepares and finalizes without running: no table is
// read. The connection must be idle and used by the caller only.
func (h Handle) Describe(query string) (names, decls []string, err error) {
	if h.db == 0 {
		return nil, nil, errors.New("sqlitevt: describe: no connection")
	}
	tls := libc.NewTLS()
	defer tls.Close()
	z := cString(tls, query)
	if z == 0 {
		return nil, nil, errors.New("sqlitevt: describe: out of memory")
	}
	defer lib.Xsqlite3_free(tls, z)
	pp := tls.Alloc(8)
	defer tls.Free(8)
	setOut(pp, 0)
	if rc := lib.Xsqlite3_prepare_v2(tls, h.db, z, -1, pp, 0); rc != lib.SQLITE_OK {
		return nil, nil, fmt.Errorf("sqlitevt: describe: %s", h.errmsg(tls))
	}
	stmt := *(*uintptr)(cptr(pp))
	if stmt == 0 { // blanks or a comment only
		return nil, nil, nil
	}
	defer lib.Xsqlite3_finalize(tls, stmt)
	n := int(lib.Xsqlite3_column_count(tls, stmt))
	names, decls = make([]string, n), make([]string, n)
	for i := range n {
		names[i] = goString(lib.Xsqlite3_column_name(tls, stmt, int32(i)))
		decls[i] = strings.ToUpper(goString(lib.Xsqlite3_column_decltype(tls, stmt, int32(i))))
	}
	return names, decls, nil
}
