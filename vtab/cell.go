package vtab

import (
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
)

// cellKind is the SQLite storage class of a column value that a cells
// cursor hands to a binding unboxed (see cell).
type cellKind uint8

const (
	cellNull cellKind = iota
	cellInt
	cellFloat
	cellText
	cellErr
)

// cell returns column col of the current row without boxing it: its kind
// and, by kind, n, f, s or err. It agrees with Column (which boxes the
// same values for the vtab API): REAL for floats (NaN as NULL), INTEGER
// for integers, REAL for a u64 above 2^63-1, TEXT for labels.
func (c *cellsCursor) cell(col int) (k cellKind, n int64, f float64, s string, err error) {
	if err := c.s.Err(); err != nil {
		return cellErr, 0, 0, "", err
	}
	t := c.t
	switch {
	case col == t.valueCol:
		vals, i, ok := c.s.Value()
		if !ok {
			return cellErr, 0, 0, "", c.s.Err()
		}
		switch dt := t.info.DType; dt {
		case array.F32, array.F64, array.F16:
			f = dt.Float64(vals, i)
			if f != f {
				return cellNull, 0, 0, "", nil
			}
			return cellFloat, 0, f, "", nil
		case array.U64:
			if u := dt.Uint64(vals, i); u > math.MaxInt64 {
				return cellFloat, 0, float64(u), "", nil
			}
			fallthrough
		default:
			return cellInt, dt.Int64(vals, i), 0, "", nil
		}
	case col >= 0 && col < len(t.dims):
		return cellInt, c.s.Index(col), 0, "", nil
	case col >= 0 && col < t.valueCol:
		a := t.labelAxis[col-len(t.dims)]
		return cellText, 0, 0, t.info.Labels[a][c.s.Index(a)], nil
	}
	return cellErr, 0, 0, "", fmt.Errorf("tet: %s: no column %d", t.qualified, col)
}

// scanStats returns the counters of a finished scan (after Close).
func (c *cellsCursor) scanStats() (ScanStats, bool) { return c.s.Stats, c.s.Started() }

// scanStats returns the counters of a finished scan (after Close).
func (c *aggCursor) scanStats() (ScanStats, bool) { return c.stats, !c.started.IsZero() }
