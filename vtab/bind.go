package vtab

import (
	"os"
	"sync/atomic"

	"modernc.org/sqlite/vtab"
)

// The tables (cells.go, agg.go, meta.go) are written against the small
// interfaces of modernc.org/sqlite/vtab: Table, Cursor, IndexInfo, Value.
// Two bindings put them in front of SQLite:
//
//   - "direct" (bind_direct*.go, the default): the module is registered
//     with sqlite3_create_module_v2 on each connection Open opens, and
//     SQLite calls our own callbacks, which find their
//     Go objects through a pointer slot next to SQLite's header and hand
//     column values to sqlite3_result_* without boxing. It also reads IN
//     lists whole for aggregate tables, reports xNext errors with their
//     message and keeps tet_last_scan() per connection.
//   - "modernc" (bind_modernc_safe.go, open.go): modernc's vtab package,
//     through a private modernc Driver per session, which looks every
//     callback's object up in a global map under a lock and passes column
//     values as interfaces.
//
// TETSQL_VTAB=modernc in the environment, or setting Binding before the
// first Register, selects the fallback.

// Binding is the binding the first Register installs: "direct" or
// "modernc". It defaults to $TETSQL_VTAB, else "direct".
var Binding = defaultBinding()

// BindingDirect and BindingModernc are the values of Binding.
const (
	BindingDirect  = "direct"
	BindingModernc = "modernc"
)

func defaultBinding() string {
	if os.Getenv("TETSQL_VTAB") == BindingModernc {
		return BindingModernc
	}
	return BindingDirect
}

// ActiveBinding reports the binding Register installed ("" before it).
func ActiveBinding() string {
	s, _ := active.Load().(string)
	return s
}

var active atomic.Value // string

func register() error {
	if Binding == BindingModernc {
		active.Store(BindingModernc)
		return registerModernc()
	}
	active.Store(BindingDirect)
	return registerDirect()
}

// registerModernc has nothing to prepare: the fallback drivers (open.go)
// are made as sessions need them.
func registerModernc() error { return nil }

// inLister is a table whose equality constraints may be read as whole IN
// lists: with the direct binding, Filter then receives an InList value
// for such a constraint instead of being run once per listed value.
type inLister interface {
	// inListColumn reports whether an equality on column col may be read
	// as a whole IN list.
	inListColumn(col int) bool
}

// InList is the value of a constraint "col IN (…)" read whole: its
// distinct values (nil, int64, float64, string or []byte).
type InList []vtab.Value

// statser is a cursor that finished a scan worth reporting.
type statser interface{ scanStats() (ScanStats, bool) }

// BoundObjects reports how many tables, cursors and connections the
// direct binding holds (0 with the modernc binding); tests use it to check
// that closing a database frees them.
func BoundObjects() int { return liveObjects() + connCount() }

// collations tells a table which of the constraints offered to BestIndex
// compare with the BINARY collation. Label and dataset-name pushdown
// compares bytes, so it may use only those; a comparison under another
// collation (`= 'abc' COLLATE NOCASE`) is left to SQLite. Numbers (dims,
// rowid, value) never compare under a collation.
type collations interface{ binary(i int) bool }

// unknownCollations is what the modernc binding can say: its IndexInfo
// does not carry sqlite3_vtab_collation, so no constraint is known to be
// BINARY.
type unknownCollations struct{}

func (unknownCollations) binary(int) bool { return false }

// collBestIndexer is a table whose plan depends on collations: the direct
// binding calls bestIndex with each constraint's collation, the fallback
// calls BestIndex, which passes unknownCollations.
type collBestIndexer interface {
	bestIndex(info *vtab.IndexInfo, coll collations) error
}
