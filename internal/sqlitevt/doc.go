// Package sqlitevt is tetsql's one binding to SQLite's virtual-table C API,
// through modernc.org/sqlite/lib (SQLite transpiled to Go, whose functions
// take a *libc.TLS and pass C pointers as uintptr). Every unsafe line
// about SQLite lives here.
//
// The entry point is [HandleOf], which finds the sqlite3* handle of a
// connection opened by modernc.org/sqlite's database/sql driver. On that
// handle, [Handle.CreateModule] registers a [Module] whose tables
// implement [Table] and whose cursors implement [Cursor], and
// [Handle.CreateFunction] registers a scalar SQL function. Both exist on
// that connection only. The handle also offers the few calls database/sql
// cannot make: [Handle.Interrupt], [Handle.SetLimit] and [Handle.State].
//
// What the binding does for its tables:
//
//   - xBestIndex is read into an [IndexInfo] (constraints with their
//     collation, ORDER BY, columns used) and the table's plan is written
//     back. ArgIndex is 0-based (SQLite's argvIndex is 1-based); -1 means
//     unused. An error from BestIndex aborts the statement: price an
//     unusable plan with a huge cost instead.
//   - A table implementing [InLister] receives a consumed "col IN (…)"
//     constraint as one [InList] value instead of one Filter per value
//     (sqlite3_vtab_in).
//   - Column values are written into a [Result] (sqlite3_result_*),
//     never boxed into an interface: the per-row path allocates nothing.
//   - Every callback recovers panics: a panic must not unwind through the
//     transpiled C code (which holds locks). The panic becomes the
//     statement's error, through [PanicHandler] if the table implements
//     it. A cursor's Eof is asked inside xFilter and xNext, which can
//     fail, so a panic there fails the statement too (xEof cannot fail).
//   - Changes (INSERT, UPDATE, DELETE) are refused, with the table's own
//     message if it implements [Refuser].
//
// Memory. Everything SQLite dereferences lives in C memory
// (sqlite3_malloc): the transpiled C code must never be handed a Go
// pointer (checkptr, on under -race, rejects it, and Go stacks move). A
// table or cursor is SQLite's header followed by one pointer-sized slot
// holding the Go object; the collector does not scan C memory, so the
// object is also kept in a Go set until the C object is freed ([Live]
// counts them). Go's collector never moves heap objects, so the slot
// stays valid, and every callback after xConnect/xOpen finds its object
// by reading the slot: no lock and no map per row.
package sqlitevt
