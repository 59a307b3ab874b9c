package vtab

import (
	"fmt"
	"math"
	"strings"
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
	"modernc.org/sqlite/vtab"
)

// The direct binding's planning and value conversion: xBestIndex over
// sqlite3_index_info, xUpdate, and sqlite3_value → Go.

// SQLite's constraint operators in vtab's terms (as modernc maps them).
var opFromC = map[uint8]vtab.ConstraintOp{
	lib.SQLITE_INDEX_CONSTRAINT_EQ: vtab.OpEQ, lib.SQLITE_INDEX_CONSTRAINT_GT: vtab.OpGT,
	lib.SQLITE_INDEX_CONSTRAINT_LE: vtab.OpLE, lib.SQLITE_INDEX_CONSTRAINT_LT: vtab.OpLT,
	lib.SQLITE_INDEX_CONSTRAINT_GE: vtab.OpGE, lib.SQLITE_INDEX_CONSTRAINT_MATCH: vtab.OpMATCH,
	lib.SQLITE_INDEX_CONSTRAINT_NE: vtab.OpNE, lib.SQLITE_INDEX_CONSTRAINT_IS: vtab.OpIS,
	lib.SQLITE_INDEX_CONSTRAINT_ISNOT: vtab.OpISNOT, lib.SQLITE_INDEX_CONSTRAINT_ISNULL: vtab.OpISNULL,
	lib.SQLITE_INDEX_CONSTRAINT_ISNOTNULL: vtab.OpISNOTNULL, lib.SQLITE_INDEX_CONSTRAINT_LIKE: vtab.OpLIKE,
	lib.SQLITE_INDEX_CONSTRAINT_GLOB: vtab.OpGLOB, lib.SQLITE_INDEX_CONSTRAINT_REGEXP: vtab.OpREGEXP,
	lib.SQLITE_INDEX_CONSTRAINT_FUNCTION: vtab.OpFUNCTION, lib.SQLITE_INDEX_CONSTRAINT_LIMIT: vtab.OpLIMIT,
	lib.SQLITE_INDEX_CONSTRAINT_OFFSET: vtab.OpOFFSET,
}

// xBestIndex reads sqlite3_index_info into a vtab.IndexInfo, lets the
// table plan, and writes the plan back. A table that reads IN lists
// whole asks SQLite (sqlite3_vtab_in) to pass each consumed IN list as
// one value.
func xBestIndex(tls *libc.TLS, pVtab, pInfo uintptr) int32 {
	bt := tableOf(pVtab)
	idx := (*lib.Sqlite3_index_info)(cptr(pInfo))
	n := int(idx.FnConstraint)
	info := &vtab.IndexInfo{ColUsed: uint64(idx.FcolUsed), IdxFlags: int(idx.FidxFlags)}
	if n > 0 {
		cons := unsafe.Slice((*lib.Tsqlite3_index_constraint)(cptr(idx.FaConstraint)), n)
		info.Constraints = make([]vtab.Constraint, n)
		for i, c := range cons {
			op, ok := opFromC[c.Fop]
			if !ok {
				op = vtab.OpUnknown
			}
			info.Constraints[i] = vtab.Constraint{Column: int(c.FiColumn), Op: op, Usable: c.Fusable != 0, ArgIndex: -1}
		}
	}
	if m := int(idx.FnOrderBy); m > 0 {
		for _, o := range unsafe.Slice((*lib.Tsqlite3_index_orderby)(cptr(idx.FaOrderBy)), m) {
			info.OrderBy = append(info.OrderBy, vtab.OrderBy{Column: int(o.FiColumn), Desc: o.Fdesc != 0})
		}
	}
	var err error
	if cb, ok := bt.impl.(collBestIndexer); ok {
		err = cb.bestIndex(info, directCollations{tls, pInfo})
	} else {
		err = bt.impl.BestIndex(info)
	}
	if err != nil {
		setVtabErr(tls, pVtab, err)
		return lib.SQLITE_ERROR
	}
	if info.IdxNum < math.MinInt32 || info.IdxNum > math.MaxInt32 {
		setVtabErr(tls, pVtab, fmt.Errorf("tet: idxNum %d out of range", info.IdxNum))
		return lib.SQLITE_ERROR
	}
	if n > 0 {
		usage := unsafe.Slice((*lib.Tsqlite3_index_constraint_usage)(cptr(idx.FaConstraintUsage)), n)
		for i, c := range info.Constraints {
			if c.ArgIndex >= 0 {
				usage[i].FargvIndex = int32(c.ArgIndex + 1) // SQLite's argvIndex is 1-based
			}
			if c.Omit {
				usage[i].Fomit = 1
			}
			// All-at-once IN needs argvIndex and omit; SQLite ignores
			// the request for a constraint that is not an IN.
			if l := bt.inLists; l != nil && c.ArgIndex >= 0 && c.Omit && c.Op == vtab.OpEQ && i < 32 && l.inListColumn(c.Column) {
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

// directCollations asks SQLite (sqlite3_vtab_collation) for the
// collation of each constraint; only valid during xBestIndex.
type directCollations struct {
	tls   *libc.TLS
	pInfo uintptr
}

func (d directCollations) binary(i int) bool {
	z := lib.Xsqlite3_vtab_collation(d.tls, d.pInfo, int32(i))
	return z != 0 && strings.EqualFold(libc.GoString(z), "BINARY")
}

// xUpdate hands a change to the table, which refuses it (read-only)
// with a message.
func xUpdate(tls *libc.TLS, pVtab uintptr, argc int32, argv, pRowid uintptr) int32 {
	u, ok := tableOf(pVtab).impl.(interface {
		Insert([]vtab.Value, *int64) error
		Update(int64, []vtab.Value, *int64) error
		Delete(int64) error
	})
	if !ok {
		return lib.SQLITE_READONLY
	}
	av := unsafe.Slice((*uintptr)(cptr(argv)), argc)
	var err error
	switch {
	case argc == 1:
		err = u.Delete(lib.Xsqlite3_value_int64(tls, av[0]))
	case argc >= 2:
		cols := make([]vtab.Value, argc-2)
		for i := range cols {
			cols[i] = goValue(tls, av[i+2])
		}
		rid := lib.Xsqlite3_value_int64(tls, av[1])
		if lib.Xsqlite3_value_type(tls, av[0]) == lib.SQLITE_NULL {
			err = u.Insert(cols, &rid)
		} else {
			err = u.Update(lib.Xsqlite3_value_int64(tls, av[0]), cols, &rid)
		}
		if err == nil && pRowid != 0 {
			*(*int64)(cptr(pRowid)) = rid
		}
	}
	if err != nil {
		setVtabErr(tls, pVtab, err)
		return lib.SQLITE_ERROR
	}
	return lib.SQLITE_OK
}

// goValue copies a sqlite3_value into a Go value (nil, int64, float64,
// string or []byte).
func goValue(tls *libc.TLS, v uintptr) vtab.Value {
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
		return string(unsafe.Slice((*byte)(cptr(p)), n))
	case lib.SQLITE_BLOB:
		p := lib.Xsqlite3_value_blob(tls, v)
		n := lib.Xsqlite3_value_bytes(tls, v)
		b := make([]byte, max(n, 0))
		if p != 0 && n > 0 {
			copy(b, unsafe.Slice((*byte)(cptr(p)), n))
		}
		return b
	}
	return nil
}
