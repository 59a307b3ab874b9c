package sqlitevt

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// Planning (xBestIndex over sqlite3_index_info), the refusal of changes
// (xUpdate), and sqlite3_value → Go.

// opFromC maps SQLite's constraint operators to ours.
var opFromC = map[uint8]ConstraintOp{
	lib.SQLITE_INDEX_CONSTRAINT_EQ: OpEQ, lib.SQLITE_INDEX_CONSTRAINT_GT: OpGT,
	lib.SQLITE_INDEX_CONSTRAINT_LE: OpLE, lib.SQLITE_INDEX_CONSTRAINT_LT: OpLT,
	lib.SQLITE_INDEX_CONSTRAINT_GE: OpGE, lib.SQLITE_INDEX_CONSTRAINT_MATCH: OpMATCH,
	lib.SQLITE_INDEX_CONSTRAINT_NE: OpNE, lib.SQLITE_INDEX_CONSTRAINT_IS: OpIS,
	lib.SQLITE_INDEX_CONSTRAINT_ISNOT: OpISNOT, lib.SQLITE_INDEX_CONSTRAINT_ISNULL: OpISNULL,
	lib.SQLITE_INDEX_CONSTRAINT_ISNOTNULL: OpISNOTNULL, lib.SQLITE_INDEX_CONSTRAINT_LIKE: OpLIKE,
	lib.SQLITE_INDEX_CONSTRAINT_GLOB: OpGLOB, lib.SQLITE_INDEX_CONSTRAINT_REGEXP: OpREGEXP,
	lib.SQLITE_INDEX_CONSTRAINT_FUNCTION: OpFUNCTION, lib.SQLITE_INDEX_CONSTRAINT_LIMIT: OpLIMIT,
	lib.SQLITE_INDEX_CONSTRAINT_OFFSET: OpOFFSET,
}

// xBestIndex reads sqlite3_index_info into an IndexInfo, lets the table
// plan, and writes the plan back. For a table that reads IN lists whole
// it asks SQLite (sqlite3_vtab_in) to pass each consumed IN list as one
// value.
func xBestIndex(tls *libc.TLS, pVtab, pInfo uintptr) int32 {
	bt := tableOf(pVtab)
	idx := (*lib.Sqlite3_index_info)(cptr(pInfo))
	n := int(idx.FnConstraint)
	info := &IndexInfo{ColUsed: uint64(idx.FcolUsed), IdxFlags: int(idx.FidxFlags),
		Distinct: int(lib.Xsqlite3_vtab_distinct(tls, pInfo))}
	if n > 0 {
		cons := unsafe.Slice((*lib.Tsqlite3_index_constraint)(cptr(idx.FaConstraint)), n)
		info.Constraints = make([]Constraint, n)
		for i, c := range cons {
			info.Constraints[i] = Constraint{Column: int(c.FiColumn), Op: opFromC[c.Fop], Usable: c.Fusable != 0,
				Collation: collation(tls, pInfo, i), ArgIndex: -1}
			if op := info.Constraints[i].Op; op == OpLIMIT || op == OpOFFSET {
				info.Constraints[i].RHS = rhsValue(tls, pInfo, i)
			}
		}
	}
	if m := int(idx.FnOrderBy); m > 0 {
		for _, o := range unsafe.Slice((*lib.Tsqlite3_index_orderby)(cptr(idx.FaOrderBy)), m) {
			info.OrderBy = append(info.OrderBy, OrderBy{Column: int(o.FiColumn), Desc: o.Fdesc != 0})
		}
	}
	info.rhs = func(i int) Value { return rhsValue(tls, pInfo, i) }
	if err := bt.impl.BestIndex(info); err != nil {
		if errors.Is(err, ErrUnusablePlan) {
			return lib.SQLITE_CONSTRAINT // SQLite tries the table's other plans
		}
		return setVtabErr(tls, pVtab, err)
	}
	if info.IdxNum < math.MinInt32 || info.IdxNum > math.MaxInt32 {
		return setVtabErr(tls, pVtab, fmt.Errorf("sqlitevt: idxNum %d out of range", info.IdxNum))
	}
	if n > 0 {
		usage := unsafe.Slice((*lib.Tsqlite3_index_constraint_usage)(cptr(idx.FaConstraintUsage)), n)
		for i, c := range info.Constraints[:n] {
			if c.ArgIndex >= 0 {
				usage[i].FargvIndex = int32(c.ArgIndex + 1) // SQLite's argvIndex is 1-based
			}
			if c.Omit {
				usage[i].Fomit = 1
			}
			// All-at-once IN needs argvIndex; SQLite ignores the
			// request for a constraint that is not an IN, and handles
			// only the first 32 constraints. Without omit SQLite
			// re-checks the whole IN term itself, with the affinity of
			// its own comparison (a table that prunes by the list and
			// leaves exactness to SQLite relies on that).
			if l := bt.inList; l != nil && c.ArgIndex >= 0 && c.Op == OpEQ && i < 32 && l.InListColumn(c.Column) {
				lib.Xsqlite3_vtab_in(tls, pInfo, int32(i), 1)
			}
		}
	}
	idx.FidxNum = int32(info.IdxNum)
	if info.IdxStr != "" {
		if z := cString(tls, info.IdxStr); z != 0 {
			idx.FidxStr, idx.FneedToFreeIdxStr = z, 1
		}
	}
	if info.OrderByConsumed {
		idx.ForderByConsumed = 1
	}
	idx.FidxFlags = int32(info.IdxFlags)
	if info.EstimatedCost != 0 {
		idx.FestimatedCost = info.EstimatedCost
	}
	if info.EstimatedRows != 0 {
		idx.FestimatedRows = info.EstimatedRows
	}
	return lib.SQLITE_OK
}

// collation is the collation of constraint i (sqlite3_vtab_collation,
// valid only during xBestIndex). The built-in names come back as
// constants, so that planning allocates nothing for them.
func collation(tls *libc.TLS, pInfo uintptr, i int) string {
	z := lib.Xsqlite3_vtab_collation(tls, pInfo, int32(i))
	if z == 0 {
		return ""
	}
	s := libc.GoString(z)
	for _, b := range [...]string{"BINARY", "NOCASE", "RTRIM"} {
		if strings.EqualFold(s, b) {
			return b
		}
	}
	return s
}

// rhsValue is the right-hand side of constraint i when SQLite knows it
// while planning (sqlite3_vtab_rhs_value), else nil.
func rhsValue(tls *libc.TLS, pInfo uintptr, i int) Value {
	const ptr = int(unsafe.Sizeof(uintptr(0)))
	pp := tls.Alloc(ptr) // the out-parameter, in C memory
	defer tls.Free(ptr)
	*(*uintptr)(cptr(pp)) = 0
	if lib.Xsqlite3_vtab_rhs_value(tls, pInfo, int32(i), pp) != lib.SQLITE_OK {
		return nil
	}
	if v := *(*uintptr)(cptr(pp)); v != 0 {
		return goValue(tls, v)
	}
	return nil
}

// xUpdate refuses a change: tables here are read-only.
func xUpdate(tls *libc.TLS, pVtab uintptr, argc int32, argv, pRowid uintptr) int32 {
	r, ok := tableOf(pVtab).impl.(Refuser)
	if !ok {
		return lib.SQLITE_READONLY
	}
	op := "DELETE"
	if argc > 1 {
		op = "UPDATE"
		if lib.Xsqlite3_value_type(tls, *(*uintptr)(cptr(argv))) == lib.SQLITE_NULL {
			op = "INSERT"
		}
	}
	err := r.Refuse(op)
	if err == nil {
		err = fmt.Errorf("sqlitevt: %s refused", op)
	}
	return setVtabErr(tls, pVtab, err)
}

// goValue copies a sqlite3_value into a Value (nil, int64, float64,
// string or []byte).
func goValue(tls *libc.TLS, v uintptr) Value {
	switch lib.Xsqlite3_value_type(tls, v) {
	case lib.SQLITE_INTEGER:
		return lib.Xsqlite3_value_int64(tls, v)
	case lib.SQLITE_FLOAT:
		return lib.Xsqlite3_value_double(tls, v)
	case lib.SQLITE_TEXT:
		p := lib.Xsqlite3_value_text(tls, v)
		n := lib.Xsqlite3_value_bytes(tls, v)
		if p == 0 || n <= 0 {
			return ""
		}
		return string(cBytes(p, int(n)))
	case lib.SQLITE_BLOB:
		p := lib.Xsqlite3_value_blob(tls, v)
		n := lib.Xsqlite3_value_bytes(tls, v)
		b := make([]byte, max(n, 0))
		if p != 0 && n > 0 {
			copy(b, cBytes(p, int(n)))
		}
		return b
	}
	return nil
}
