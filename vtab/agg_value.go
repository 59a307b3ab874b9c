package vtab

import (
	"fmt"
	"math"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// The HIDDEN value column of an aggregate table is an input: its terms
// (=, <, <=, >, >=, BETWEEN) select the elements that are reduced, as
// "WHERE value op x" selects rows of the cells table, and are consumed
// exactly; the fold skips the chunks their statistics exclude. In the
// output rows the column is NULL.

// nothing is a value term no element satisfies (every element would
// have to lie below -Inf): its chunks are all excluded, none is read.
var nothing = scan.ValueTerm{Op: planner.OpLT, Lo: sqlNum{F: math.Inf(-1), Real: true}, Hi: sqlNum{F: math.Inf(-1), Real: true}}

// addValueTerm adds the term "value op v" to the cursor's value terms.
// An IN list is refused: its elements would be the union of one set per
// listed value, and one row per value (what running the query once per
// value gives) would not be what it asks for.
func (c *aggCursor) addValueTerm(op planner.Op, v any) error {
	if _, ok := v.(sqlitevt.InList); ok {
		return fmt.Errorf("tet: %s: value IN (…) is not supported on an aggregate table; use value BETWEEN, comparisons, or the cells table", c.t.qualified)
	}
	switch vt, k := newValueTerm(op, v); k {
	case termUse:
		c.vterms = append(c.vterms, vt)
	case termNone:
		c.vterms = append(c.vterms, nothing)
	}
	return nil
}
