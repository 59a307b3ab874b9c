package vtab

import (
	"fmt"
	"time"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// Next moves to the next group with elements.
func (c *aggCursor) Next() error {
	panicPoint("xNext")
	c.g++
	c.seek()
	return nil
}

// Eof reports the end of the result.
func (c *aggCursor) Eof() bool {
	panicPoint("xEof")
	return c.eof
}

// groupIndex returns the global index along kept axis k of group g.
func (c *aggCursor) groupIndex(k int) int64 {
	g := int64(c.g)
	for j := len(c.kept) - 1; j > k; j-- {
		g /= int64(len(c.values[j]))
	}
	return c.values[k][g%int64(len(c.values[k]))]
}

// keptPos returns the position of axis a among the kept axes, or -1.
func (c *aggCursor) keptPos(a int) int {
	for k, d := range c.kept {
		if d == a {
			return k
		}
	}
	return -1
}

// Column writes a dim, label, result or the by column of the row.
func (c *aggCursor) Column(r *sqlitevt.Result, col int) error {
	panicPoint("xColumn")
	t := c.t
	switch {
	case col < len(t.dims):
		if k := c.keptPos(col); k >= 0 {
			r.Int64(c.groupIndex(k))
		} else if c.fixed[col] >= 0 {
			r.Int64(c.fixed[col])
		} else {
			r.Null()
		}
		return nil
	case col < t.first:
		a := t.labelAxis[col-len(t.dims)]
		if k := c.keptPos(a); k >= 0 && blockOf(c.coarse, a) > 1 {
			r.Null() // a block of a coarsened axis has many labels
		} else if k >= 0 {
			t.writeLabel(r, a, c.groupIndex(k))
		} else if c.fixed[a] >= 0 {
			t.writeLabel(r, a, c.fixed[a])
		} else {
			r.Null()
		}
		return nil
	case col == t.byCol:
		r.Value(c.by)
		return nil
	case col == t.qCol:
		r.Value(c.qArg)
		return nil
	case col == t.valueCol:
		r.Null() // an input column: it holds nothing in the output rows
		return nil
	}
	name := aggResults[col-t.first]
	if writeStat(r, name, &c.groups[c.g]) {
		return nil
	}
	switch name {
	case "median", "quantile", "argmin", "argmax":
		return c.pickColumn(r, name)
	}
	return fmt.Errorf("tet: %s: no column %d", t.qualified, col)
}

// writeStat writes result column name of group s; it reports false for
// a column the fold alone does not give (median, quantile, argmin,
// argmax).
func writeStat(r *sqlitevt.Result, name string, s *fold.Stats) bool {
	// optional writes a float result, NULL when there is none or it is NaN.
	optional := func(v float64, ok bool) {
		if !ok || v != v {
			r.Null()
		} else {
			r.Float64(v)
		}
	}
	switch name {
	case "count":
		r.Int64(s.Count())
	case "null_count":
		r.Int64(s.NullCount())
	case "sum":
		if v, ok := s.IntSum(); ok {
			r.Int64(v)
		} else {
			optional(s.Sum())
		}
	case "mean":
		optional(s.Mean())
	case "min":
		if v, ok := s.IntMin(); ok {
			r.Int64(v)
		} else {
			optional(s.Min())
		}
	case "max":
		if v, ok := s.IntMax(); ok {
			r.Int64(v)
		} else {
			optional(s.Max())
		}
	case "var":
		optional(s.Var())
	case "std":
		optional(s.Std())
	default:
		return false
	}
	return true
}

// Close records the scan's statistics and unpins the file.
func (c *aggCursor) Close() error {
	if !c.started.IsZero() {
		c.stats.Elapsed = time.Since(c.started)
		c.t.record(c.stats)
	}
	c.t.session.engine().Release(&c.held)
	c.t.arr.Source().Release()
	return nil
}
