package vtab

import (
	"fmt"
	"math"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// The costly result columns: median, quantile (for the probability in
// the hidden column q), argmin and argmax need a second pass over the
// selection after the fold (fold.Picker), and median and quantile the
// selection's values in memory. They are computed only when the query
// uses them: BestIndex flags them in idxNum from colUsed.
const (
	aggMedian = 1 << (8 + iota)
	aggQuantile
	aggArgMin
	aggArgMax
)

// costly maps the costly result columns to their idxNum flag.
var costly = map[string]int64{"median": aggMedian, "quantile": aggQuantile, "argmin": aggArgMin, "argmax": aggArgMax}

// costlyUsed returns the flags of the costly columns colUsed names (bit
// 63 stands for every column from 63 on).
func (t *aggTable) costlyUsed(colUsed uint64) int64 {
	var flags int64
	for i, name := range aggResults {
		f, ok := costly[name]
		col := t.first + i
		if ok && (col >= 63 && colUsed&(1<<63) != 0 || col < 63 && colUsed&(1<<col) != 0) {
			flags |= f
		}
	}
	return flags
}

// qColumnName names the hidden q column: "q", or "_q", "__q", … when a
// dim or label column has that name. Unlike the result columns, q is
// not reserved (a dim named q keeps its name): a table-valued call
// passes it by position, t_agg('time', 0.9), whatever its name.
func (t *aggTable) qColumnName() string {
	taken := map[string]bool{}
	for a, d := range t.dims {
		taken[asciiLower(d)] = true
		taken[asciiLower(d+"_label")] = t.info.Labels != nil && t.info.Labels[a] != nil
	}
	name := "q"
	for taken[name] {
		name = "_" + name
	}
	return name
}

// parseQ validates the q argument: a number (or text that reads as one)
// from 0 to 1.
func parseQ(v any) (float64, error) {
	n, _ := numericAffinity(v, planner.OpEQ)
	var q float64
	switch x := n.(type) {
	case int64:
		q = float64(x)
	case float64:
		q = x
	default:
		return 0, fmt.Errorf("q must be a number from 0 to 1, got %s", describe(v))
	}
	if !(q >= 0 && q <= 1) {
		return 0, fmt.Errorf("q must be a number from 0 to 1, got %v", q)
	}
	return q + 0, nil // −0 is 0
}

// qKey is the q argument as part of a row's identity (agg_rowid.go).
func (c *aggCursor) qKey() uint64 {
	if !c.hasQ {
		return 0
	}
	return math.Float64bits(c.q) + 1
}

// describe names a non-numeric SQL value for an error.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return "a BLOB"
	case string:
		return fmt.Sprintf("%q", x)
	}
	return fmt.Sprint(v)
}

// pickCache is one computed quantile of the current row, so that a
// column read twice (SELECT median, median*2) selects once.
type pickCache struct {
	g   int
	v   float64
	ok  bool
	set bool
}

// pickPass runs the second pass when the plan uses costly columns: it
// budgets the gathered values and per-group targets (the fold counted
// every group's values, so the need is exact before anything is
// allocated) and feeds the selection to a fold.Picker.
func (c *aggCursor) pickPass(spec *scan.FoldSpec, used int) error {
	c.picker, c.median, c.quant = nil, pickCache{}, pickCache{}
	gather := used&aggMedian != 0 || used&aggQuantile != 0 && c.hasQ
	amin, amax := used&aggArgMin != 0, used&aggArgMax != 0
	if !gather && !amin && !amax {
		return nil
	}
	value, arg := fold.PickSizes(c.t.info.DType)
	ng := int64(len(c.groups))
	s := c.t.session.engine()
	s.Release(&c.held)
	err := func() error {
		if gather {
			n := int64(0)
			for g := range c.groups {
				n += c.groups[g].Count()
			}
			if err := c.mem.Need("median and quantile", n, "values", value); err != nil {
				return err
			}
			if err := c.mem.Need("median and quantile", ng+1, "group offsets", 16); err != nil {
				return err
			}
		}
		for _, on := range []bool{amin, amax} {
			if on {
				if err := c.mem.Need("argmin and argmax", ng, "groups", arg); err != nil {
					return err
				}
			}
		}
		return nil
	}()
	c.held = c.mem.Hold()
	if err != nil {
		s.SetErr(err) // the driver returns it whole (errors.Is)
		return err
	}
	p := fold.NewPicker(c.t.info.DType, c.groups, gather, amin, amax)
	if err := scan.Pick(spec, p, &c.stats); err != nil {
		s.SetErr(err)
		return err
	}
	c.picker = p
	return nil
}

// pickColumn writes the costly result col of the current row.
func (c *aggCursor) pickColumn(r *sqlitevt.Result, name string) error {
	if c.picker == nil {
		if name == "quantile" && !c.hasQ {
			r.Null() // no q: no quantile
			return nil
		}
		return fmt.Errorf("tet: %s: %s was not planned", c.t.qualified, name)
	}
	var v int64
	var ok bool
	switch name {
	case "median":
		c.quantile(r, &c.median, 0.5)
		return nil
	case "quantile":
		if !c.hasQ {
			r.Null()
			return nil
		}
		c.quantile(r, &c.quant, c.q)
		return nil
	case "argmin":
		v, ok = c.picker.ArgMin(c.g)
	default:
		v, ok = c.picker.ArgMax(c.g)
	}
	if ok {
		r.Int64(v)
	} else {
		r.Null()
	}
	return nil
}

// quantile writes the q-quantile of the current group, through cache.
func (c *aggCursor) quantile(r *sqlitevt.Result, cache *pickCache, q float64) {
	if !cache.set || cache.g != c.g {
		cache.v, cache.ok = c.picker.Quantile(c.g, q)
		cache.g, cache.set = c.g, true
	}
	if !cache.ok || math.IsNaN(cache.v) {
		r.Null()
		return
	}
	r.Float64(cache.v)
}
