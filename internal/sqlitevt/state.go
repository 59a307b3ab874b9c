package sqlitevt

import (
	"fmt"
	"strings"
	"unsafe"

	lib "modernc.org/sqlite/lib"
)

// ConnState is what the SQL run on a connection can change outside the
// rows of its tables: the settings of its PRAGMAs and its schemas. Two
// reads compare equal (==) when nothing changed; the driver compares a
// pooled connection's state before handing it to its next user.
//
// It is read from SQLite's connection object rather than with SQL: a
// PRAGMA read through SQL (pragma_NAME) costs a parse each time, and this
// costs a few hundred nanoseconds. The fields are those of the transpiled
// C structs of modernc.org/sqlite/lib, checked by the compiler.
type ConnState struct {
	Flags         uint64 // the boolean PRAGMAs: foreign_keys, query_only, reverse_unordered_selects, …
	Limits        [len(lib.Tsqlite3{}.FaLimit)]int32
	BusyTimeout   int32  // busy_timeout
	AnalysisLimit int32  // analysis_limit
	Encoding      uint8  // encoding
	TempStore     uint8  // temp_store
	LockMode      uint8  // locking_mode
	InTransaction bool   // a BEGIN or SAVEPOINT not yet ended
	SavepointTx   bool   // the transaction is a SAVEPOINT's
	NextPageSize  int32  // page_size of a database not created yet
	ActiveStmts   int32  // statements not yet reset (0 on an idle connection)
	Schemas       string // per schema: name, synchronous, schema cookie, object counts, cache_size, flags
}

// State reads the connection's state; nobody may be using the
// connection meanwhile.
func (h Handle) State() ConnState {
	db := (*lib.Tsqlite3)(cptr(h.db))
	st := ConnState{
		Flags:         uint64(db.Fflags),
		Limits:        db.FaLimit,
		BusyTimeout:   db.FbusyTimeout,
		AnalysisLimit: db.FnAnalysisLimit,
		Encoding:      uint8(db.Fenc),
		TempStore:     uint8(db.Ftemp_store),
		LockMode:      uint8(db.FdfltLockMode),
		InTransaction: db.FautoCommit == 0,
		SavepointTx:   db.FisTransactionSavepoint != 0,
		NextPageSize:  db.FnextPagesize,
		ActiveStmts:   db.FnVdbeActive,
	}
	var b strings.Builder
	dbs := unsafe.Slice((*lib.TDb)(cptr(db.FaDb)), db.FnDb)
	for i := range dbs {
		d := &dbs[i]
		fmt.Fprintf(&b, "%s:%d", goString(d.FzDbSName), d.Fsafety_level)
		if d.FpSchema != 0 {
			s := (*lib.TSchema)(cptr(d.FpSchema))
			fmt.Fprintf(&b, ":%d:%d:%d:%d:%d:%d", s.Fschema_cookie, s.FtblHash.Fcount, s.FidxHash.Fcount,
				s.FtrigHash.Fcount, s.Fcache_size, s.FschemaFlags)
		}
		b.WriteByte(';')
	}
	st.Schemas = b.String()
	return st
}
