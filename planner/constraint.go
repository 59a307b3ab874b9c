package planner

import (
	"errors"
	"fmt"
)

// ErrConstraint is returned by [Plan.Reset] for a constraint whose target
// or operator is invalid for the geometry (a caller bug, not a data issue).
var ErrConstraint = errors.New("planner: invalid constraint")

// Op is a constraint operator.
type Op uint8

// Operators. OpLimit and OpOffset carry a query's LIMIT and OFFSET (SQLite's
// SQLITE_INDEX_CONSTRAINT_LIMIT/OFFSET); their Target is ignored.
const (
	OpEQ     Op = iota + 1 // =
	OpLT                   // <
	OpLE                   // <=
	OpGT                   // >
	OpGE                   // >=
	OpLimit                // LIMIT n
	OpOffset               // OFFSET n
)

// String returns the SQL spelling of op.
func (op Op) String() string {
	switch op {
	case OpEQ:
		return "="
	case OpLT:
		return "<"
	case OpLE:
		return "<="
	case OpGT:
		return ">"
	case OpGE:
		return ">="
	case OpLimit:
		return "LIMIT"
	case OpOffset:
		return "OFFSET"
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

func (op Op) comparison() bool { return op >= OpEQ && op <= OpGE }

// Kind says what a constraint's left-hand side is.
type Kind uint8

// Target kinds.
const (
	KindDim   Kind = iota + 1 // an axis's INTEGER index column
	KindLabel                 // an axis's <dim>_label column (TEXT, or numeric: see LabelType)
	KindRowID                 // rowid, the global row-major element index
)

// Target is the left-hand side of a constraint: a dim column, a label
// column (both by axis) or rowid (Axis ignored).
type Target struct {
	Kind Kind
	Axis int
}

// Dim returns the target "index column of axis d".
func Dim(d int) Target { return Target{KindDim, d} }

// Label returns the target "label column of axis d".
func Label(d int) Target { return Target{KindLabel, d} }

// RowID returns the target "rowid".
func RowID() Target { return Target{Kind: KindRowID} }

// String returns "dim d", "label d" or "rowid".
func (t Target) String() string {
	switch t.Kind {
	case KindDim:
		return fmt.Sprintf("dim %d", t.Axis)
	case KindLabel:
		return fmt.Sprintf("label %d", t.Axis)
	case KindRowID:
		return "rowid"
	}
	return fmt.Sprintf("Target(%d, %d)", uint8(t.Kind), t.Axis)
}

// Constraint is one "target op value" term of a WHERE clause (or a
// LIMIT/OFFSET). Value is what SQLite passes to xFilter: int64, float64,
// string, []byte or nil; any other type (Go int included) is never
// honoured and restricts nothing.
type Constraint struct {
	Target Target
	Op     Op
	Value  any
}

// Usage is what the planner can do with a constraint known only by target
// and operator (BestIndex time, before values are known). It is a bit set.
type Usage uint8

// Usage bits. A Usage of 0 means the planner ignores the constraint: do not
// pass its value, leave it to SQLite.
const (
	// Prunes: the planner narrows the selection (or, for LIMIT/OFFSET, skips
	// work) with this constraint; pass its value to Filter.
	Prunes Usage = 1 << iota
	// ExactNumeric: honoured exactly when the value is int64, float64 or
	// NULL. A string or []byte value is reported not honoured at Filter time.
	ExactNumeric
	// ExactText: honoured exactly when the value is a string or NULL.
	ExactText
)

// Usable returns what the planner does with "target op ?" on this geometry:
//
//	dim  = < <= > >=        Prunes|ExactNumeric
//	rowid = < <= > >=       Prunes|ExactNumeric (exact with the rowid filter)
//	label =                 Prunes|ExactText; Prunes only if the axis has duplicate labels
//	label < <= > >=         Prunes|ExactText if labels strictly ascend, else 0
//	numeric label =         Prunes|ExactNumeric if the labels are ordered or unique, else Prunes
//	numeric label < <= > >= Prunes|ExactNumeric if the labels are ordered, else Prunes
//	LIMIT, OFFSET           Prunes|ExactNumeric (applied by the caller, see [Iter.NextSkip])
//	anything invalid        0
//
// It may build the axis's label index (once per geometry).
func (g *Geometry) Usable(t Target, op Op) Usage {
	if op == OpLimit || op == OpOffset {
		return Prunes | ExactNumeric
	}
	if !op.comparison() {
		return 0
	}
	switch t.Kind {
	case KindRowID:
		return Prunes | ExactNumeric
	case KindDim:
		if t.Axis >= 0 && t.Axis < g.rank {
			return Prunes | ExactNumeric
		}
	case KindLabel:
		if !g.Labeled(t.Axis) {
			return 0
		}
		a := g.labels[t.Axis]
		if na := a.numeric(); na != nil {
			if na.order != 0 || op == OpEQ && na.unique() {
				return Prunes | ExactNumeric
			}
			return Prunes // the hull of the matches (numspan.go); SQLite re-checks
		}
		switch {
		case a.isSorted():
			return Prunes | ExactText
		case op != OpEQ:
			return 0
		case a.unique():
			return Prunes | ExactText
		default:
			return Prunes
		}
	}
	return 0
}

// check validates a constraint's target and operator against g.
func (g *Geometry) check(c Constraint) error {
	if c.Op == OpLimit || c.Op == OpOffset {
		return nil
	}
	if !c.Op.comparison() {
		return fmt.Errorf("%w: operator %v", ErrConstraint, c.Op)
	}
	switch c.Target.Kind {
	case KindRowID:
		return nil
	case KindDim:
		if c.Target.Axis >= 0 && c.Target.Axis < g.rank {
			return nil
		}
	case KindLabel:
		if g.Labeled(c.Target.Axis) {
			return nil
		}
		return fmt.Errorf("%w: axis %d has no labels", ErrConstraint, c.Target.Axis)
	}
	return fmt.Errorf("%w: target %+v", ErrConstraint, c.Target)
}
