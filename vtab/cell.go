package vtab

import (
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// Column writes column col of the current row into r without boxing it:
// REAL for floats (NaN as NULL), INTEGER for integers, REAL for a u64
// above 2^63-1, labels as their column's type. It is on the per-row path: no
// allocation, no value boxed into an interface.
func (c *cellsCursor) Column(r *sqlitevt.Result, col int) error {
	if c.topk {
		return c.topkColumn(r, col)
	}
	if err := c.s.Err(); err != nil {
		return err
	}
	t := c.t
	switch {
	case col == t.valueCol:
		vals, i, ok := c.s.Value()
		if !ok {
			return c.s.Err()
		}
		switch dt := t.info.DType; dt {
		case array.F32, array.F64, array.F16:
			if f := dt.Float64(vals, i); f == f {
				r.Float64(f)
			} else {
				r.Null()
			}
		case array.U64:
			if u := dt.Uint64(vals, i); u > math.MaxInt64 {
				r.Float64(float64(u))
			} else {
				r.Int64(int64(u))
			}
		default:
			r.Int64(dt.Int64(vals, i))
		}
		return nil
	case col >= 0 && col < len(t.dims):
		r.Int64(c.s.Index(col))
		return nil
	case col >= 0 && col < t.valueCol:
		a := t.labelAxis[col-len(t.dims)]
		t.writeLabel(r, a, c.s.Index(a))
		return nil
	}
	return fmt.Errorf("tet: %s: no column %d", t.qualified, col)
}
