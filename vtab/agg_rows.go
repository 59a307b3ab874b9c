package vtab

import (
	"fmt"
	"strings"
	"time"

	"modernc.org/sqlite/vtab"
)

// parseAggSpecs parses an aggregate idxStr: cells entries plus "b".
func parseAggSpecs(s string) ([]argSpec, error) {
	var out []argSpec
	for _, p := range strings.Split(s, ",") {
		if p == "b" {
			out = append(out, argSpec{kind: 'b'})
			continue
		}
		if p == "" {
			continue
		}
		specs, err := parseIdxStr(p)
		if err != nil {
			return nil, err
		}
		out = append(out, specs...)
	}
	return out, nil
}

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

// Column returns a dim, label, result or the by column of the row.
func (c *aggCursor) Column(col int) (vtab.Value, error) {
	panicPoint("xColumn")
	t := c.t
	switch {
	case col < len(t.dims):
		if k := c.keptPos(col); k >= 0 {
			return c.groupIndex(k), nil
		}
		if c.fixed[col] >= 0 {
			return c.fixed[col], nil
		}
		return nil, nil
	case col < t.first:
		a := t.labelAxis[col-len(t.dims)]
		if k := c.keptPos(a); k >= 0 {
			return t.info.Labels[a][c.groupIndex(k)], nil
		}
		if c.fixed[a] >= 0 {
			return t.info.Labels[a][c.fixed[a]], nil
		}
		return nil, nil
	case col == t.byCol:
		return c.by, nil
	}
	s := &c.groups[c.g]
	switch aggResults[col-t.first] {
	case "count":
		return s.Count(), nil
	case "null_count":
		return s.NullCount(), nil
	case "sum":
		if v, ok := s.IntSum(); ok {
			return v, nil
		}
		return optional(s.Sum())
	case "mean":
		return optional(s.Mean())
	case "min":
		if v, ok := s.IntMin(); ok {
			return v, nil
		}
		return optional(s.Min())
	case "max":
		if v, ok := s.IntMax(); ok {
			return v, nil
		}
		return optional(s.Max())
	case "var":
		return optional(s.Var())
	case "std":
		return optional(s.Std())
	}
	return nil, fmt.Errorf("tet: %s: no column %d", t.qualified, col)
}

func optional(v float64, ok bool) (vtab.Value, error) {
	if !ok || v != v {
		return nil, nil
	}
	return v, nil
}

// Close records the scan's statistics and unpins the file.
func (c *aggCursor) Close() error {
	if !c.started.IsZero() {
		c.stats.Elapsed = time.Since(c.started)
		c.t.session.engine().Record(c.stats)
	}
	c.t.session.engine().Release(&c.held)
	c.t.arr.Source().Release()
	return nil
}
