package sqlitevt

import (
	"errors"
	"fmt"
)

// Value is an SQL value as Filter and a function receive it: nil,
// int64, float64, string, []byte, or an [InList]. Strings and blobs are
// copies the callee may keep.
type Value = any

// InList is the value of a constraint "col IN (…)" read whole (see
// [InLister]): its distinct values, each nil, int64, float64, string or
// []byte.
type InList []Value

// ConstraintOp is the operator of a constraint offered to BestIndex.
type ConstraintOp uint8

// The constraint operators. OpUnknown stands for any operator SQLite may
// add later.
const (
	OpUnknown ConstraintOp = iota
	OpEQ
	OpGT
	OpLE
	OpLT
	OpGE
	OpMATCH
	OpNE
	OpIS
	OpISNOT
	OpISNULL
	OpISNOTNULL
	OpLIKE
	OpGLOB
	OpREGEXP
	OpFUNCTION
	OpLIMIT
	OpOFFSET
)

// Constraint is one WHERE term SQLite offers to BestIndex. The table sets
// ArgIndex (0-based position of the term's right-hand side in Filter's
// vals; -1 = not used) and Omit (SQLite need not re-check the term).
type Constraint struct {
	Column    int          // column index; -1 = rowid
	Op        ConstraintOp // operator
	Usable    bool         // false: the term cannot be used in this plan
	Collation string       // collation the term compares under, e.g. "BINARY"
	ArgIndex  int          // set by the table
	Omit      bool         // set by the table
	// RHS is the right-hand side when SQLite knows it while planning
	// (sqlite3_vtab_rhs_value), read for LIMIT and OFFSET only: a
	// literal or bound LIMIT 10 is known (SQLite prepares the statement
	// again when another value is bound), LIMIT -1 is not (nil).
	RHS Value
}

// OrderBy is one term of the statement's ORDER BY.
type OrderBy struct {
	Column int
	Desc   bool
}

// ErrUnusablePlan, returned (or wrapped) by BestIndex, says that the
// combination of usable constraints offered cannot be planned: xBestIndex
// returns SQLITE_CONSTRAINT and SQLite tries the table's other plans (a
// statement left with none fails with "no query solution").
var ErrUnusablePlan = errors.New("sqlitevt: this combination of constraints cannot be planned")

// IndexScanUnique is the IdxFlags bit telling SQLite that the plan
// visits at most one row.
const IndexScanUnique = 1

// IndexInfo is SQLite's sqlite3_index_info as BestIndex sees it: the
// input fields are filled by the binding, the rest by the table.
type IndexInfo struct {
	Constraints []Constraint // input; ArgIndex and Omit are output
	OrderBy     []OrderBy    // input
	ColUsed     uint64       // input: bit i = column i is used (bit 63: any column ≥ 63)
	// Distinct is sqlite3_vtab_distinct: 0 the rows must come in
	// OrderBy order; 1 (GROUP BY) and 2 (DISTINCT) rows equal in the
	// OrderBy columns need only be adjacent; 3 sorted as for 0.
	Distinct int // input

	IdxNum          int64   // output: handed to Filter (must fit an int32)
	IdxStr          string  // output: handed to Filter
	OrderByConsumed bool    // output: rows come in ORDER BY order
	IdxFlags        int     // input and output: IndexScanUnique
	EstimatedCost   float64 // output (0: SQLite's default)
	EstimatedRows   int64   // output (0: SQLite's default)

	// rhs reads the right-hand value of constraint i when SQLite knows
	// it at planning time, else nil (see RHS); nil outside the binding's
	// xBestIndex.
	rhs func(i int) Value
}

// RHS returns the right-hand value of constraint i when SQLite knows it
// while planning (a literal: sqlite3_vtab_rhs_value), for estimates only:
// a plan must never depend on it. ok is false when the value is not
// known (a NULL literal included), i is out of range, or the IndexInfo
// was not made by the binding.
func (info *IndexInfo) RHS(i int) (v Value, ok bool) {
	if info.rhs == nil || i < 0 || i >= len(info.Constraints) {
		return nil, false
	}
	v = info.rhs(i)
	return v, v != nil
}

// Context is handed to Module.Create and Module.Connect.
type Context interface {
	// Declare declares the table's columns with a CREATE TABLE statement.
	Declare(schema string) error
}

// Module makes the tables of the connection it is registered on.
type Module interface {
	// Create runs for CREATE VIRTUAL TABLE; args are the module name,
	// schema, table name, then the arguments as written.
	Create(ctx Context, args []string) (Table, error)
	// Connect runs when SQLite opens an existing table.
	Connect(ctx Context, args []string) (Table, error)
}

// Table is one virtual table.
type Table interface {
	// BestIndex plans a scan (see [IndexInfo]).
	BestIndex(info *IndexInfo) error
	// Open makes a cursor.
	Open() (Cursor, error)
	// Disconnect releases the table when the connection lets it go.
	Disconnect() error
	// Destroy releases the table when it is dropped.
	Destroy() error
}

// Cursor walks the rows of one scan. All its methods run on the
// connection's goroutine, one at a time.
type Cursor interface {
	// Filter starts a scan with the plan BestIndex chose and the values
	// of the constraints it asked for, in ArgIndex order.
	Filter(idxNum int, idxStr string, vals []Value) error
	// Next moves to the next row.
	Next() error
	// Eof reports whether the scan is past its last row. It is asked
	// once after each successful Filter and Next, and its answer kept
	// until the next one.
	Eof() bool
	// Column writes column col of the current row into r; an error
	// becomes the statement's error.
	Column(r *Result, col int) error
	// Rowid returns the current row's rowid.
	Rowid() (int64, error)
	// Close ends the cursor.
	Close() error
}

// Stepper is an optional interface of a [Cursor] that moves to the next
// row and reports the end in one call: xNext then makes one call into
// the cursor instead of two, which is measurable on scans that read no
// column (count(*)). Step must do exactly what Next followed by Eof do.
type Stepper interface {
	Step() (eof bool, err error)
}

// InLister is an optional interface of a [Table] whose equality
// constraints may be read as whole IN lists: Filter then receives an
// [InList] for such a constraint (one that BestIndex consumed with an
// ArgIndex and Omit) instead of being run once per listed value.
type InLister interface {
	// InListColumn reports whether "col IN (…)" may be read whole.
	InListColumn(col int) bool
	// InListFits is asked, while a long list is copied (at every MiB
	// past the first), whether n values taking about bytes of memory may
	// be held; an error ends the statement.
	InListFits(n, bytes int64) error
}

// Refuser is an optional interface of a [Table]: the error refusing a
// change, op being "INSERT", "UPDATE" or "DELETE". Without it a change
// fails with SQLite's "attempt to write a readonly database".
type Refuser interface {
	Refuse(op string) error
}

// PanicHandler is an optional interface of a [Module] (for xCreate and
// xConnect) and of a [Table] (for its callbacks and its cursors'): the
// error a panic recovered in callback where ("xFilter", …) becomes.
// Without it the error is a [*PanicError].
type PanicHandler interface {
	Panicked(where string, p any) error
}

// PanicError is a panic recovered in a callback of a table that is not a
// [PanicHandler].
type PanicError struct {
	Where string // the callback, e.g. "xFilter"
	Value any    // what was panicked with
}

// Error says where the panic happened and what it was.
func (e *PanicError) Error() string {
	return fmt.Sprintf("sqlitevt: panic in %s: %v", e.Where, e.Value)
}

// Func is the body of a scalar SQL function (see [Handle.CreateFunction]):
// it writes its result into r; an error becomes the statement's error.
type Func func(r *Result, args []Value) error
