package vtab

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// need reserves memory for the merged rows against the session's limit.
func (c *manyAgg) need(what string, n int64, unit string, each int64) error {
	if err := c.mem.Need(what, n, unit, each); err != nil {
		c.t.args.session.setErr(err)
		return err
	}
	return nil
}

// mergePicks merges what the file's second pass found for the row:
// argmin and argmax (of equal extremes the smallest rowid wins, which is
// the first file's) and the gathered values of median and quantile.
func (c *manyAgg) mergePicks(g *mgroup, fi int, r *partRow) error {
	s := r.stats
	if s.Count() == 0 {
		return nil
	}
	rowid := func(v int64) (int64, error) {
		if v>>c.shift != 0 {
			return 0, fmt.Errorf("tet: %s: %s has too many elements for rowids over %d files", c.t.qualified, c.t.list.files[fi].path, len(c.t.list.files))
		}
		return int64(fi)<<c.shift | v, nil
	}
	if r.argMin >= 0 {
		id, err := rowid(r.argMin)
		if err != nil {
			return err
		}
		if g.argMin == noArg || s.CmpMin(g.minOf) < 0 || s.CmpMin(g.minOf) == 0 && id < g.argMin {
			g.argMin, g.minOf = id, s
		}
	}
	if r.argMax >= 0 {
		id, err := rowid(r.argMax)
		if err != nil {
			return err
		}
		if g.argMax == noArg || s.CmpMax(g.maxOf) > 0 || s.CmpMax(g.maxOf) == 0 && id < g.argMax {
			g.argMax, g.maxOf = id, s
		}
	}
	if n := len(r.f32) + len(r.f64); n > 0 {
		value, _ := fold.PickSizes(c.t.tmpl.at.info.DType)
		if err := c.need("median and quantile", int64(n), "values", value); err != nil {
			return err
		}
		g.f32, g.f64 = append(g.f32, r.f32...), append(g.f64, r.f64...)
	}
	return nil
}

// sortRows orders the merged rows: by their first file when grouped by
// a file column, then by group index on each grouped axis, as one file's
// aggregate orders its rows.
func (c *manyAgg) sortRows() {
	slices.SortStableFunc(c.rows, func(a, b *mgroup) int {
		if len(c.fileBy) > 0 && a.order != b.order {
			return cmp.Compare(a.order, b.order)
		}
		return slices.Compare(a.keys, b.keys)
	})
}

// rowBase returns the rowid block of this Filter's rows: the same
// arguments give the same block (see agg_rowid.go for why a row's rowid
// must say which row it is), others a new one.
func (c *manyAgg) rowBase(idxStr string, vals []sqlitevt.Value) int64 {
	var b strings.Builder
	b.WriteString(idxStr)
	for _, v := range vals {
		fmt.Fprintf(&b, "\x00%T:%v", v, v)
	}
	k := b.String()
	if base, ok := c.rowids[k]; ok {
		return base
	}
	if len(c.rowids) >= maxRowidBlocks {
		clear(c.rowids)
	}
	base := c.next
	c.rowids[k] = base
	c.next += int64(len(c.rows)) + 1
	return base
}

// Next implements sqlitevt.Cursor.
func (c *manyAgg) Next() error {
	c.g++
	c.eof = c.g >= len(c.rows)
	return nil
}

// Eof implements sqlitevt.Cursor.
func (c *manyAgg) Eof() bool { return c.eof }

// Rowid implements sqlitevt.Cursor.
func (c *manyAgg) Rowid() (int64, error) { return c.base + int64(c.g), nil }

// Column implements sqlitevt.Cursor.
func (c *manyAgg) Column(r *sqlitevt.Result, col int) error {
	panicPoint("xColumn")
	t, g := c.t, c.rows[c.g]
	if col < t.nfix {
		for k, fc := range c.fileBy {
			if fc == col {
				if g.fileKey[k] == "\x00NULL" {
					r.Null()
				} else {
					r.Text(g.fileKey[k])
				}
				return nil
			}
		}
		if v := g.files[col]; v != nil && (!g.filesMixed[col] || c.patternOn(col)) {
			r.Text(*v)
		} else {
			r.Null()
		}
		return nil
	}
	at := t.tmpl.agg
	col -= t.nfix
	switch {
	case col < len(at.dims):
		if k := slices.Index(c.kept, col); k >= 0 {
			r.Int64(g.keys[k])
		} else if g.fixed[col] >= 0 {
			r.Int64(g.fixed[col])
		} else {
			r.Null()
		}
		return nil
	case col < at.first:
		j := col - len(at.dims)
		if g.labelSet[j] && !g.mixed[j] {
			r.Value(g.labels[j])
		} else {
			r.Null()
		}
		return nil
	case col == at.byCol:
		r.Value(c.by)
		return nil
	case col == at.qCol:
		r.Value(c.qArg)
		return nil
	case col == at.valueCol:
		r.Null()
		return nil
	}
	name := aggResults[col-at.first]
	if writeStat(r, name, &g.stats) {
		return nil
	}
	return c.pickColumn(r, g, name)
}

// patternOn reports whether the plan has a LIKE, GLOB or IS NOT NULL
// term on file column col. SQLite tests such a term again on the output
// rows even when the table consumed it (its LIKE optimization keeps the
// term), so a merged row shows the first merged file's value there,
// which satisfies it (every merged file does), rather than NULL.
func (c *manyAgg) patternOn(col int) bool {
	for _, t := range c.ps.terms {
		if t.col == col && (t.op == sqlitevt.OpLIKE || t.op == sqlitevt.OpGLOB || t.op == sqlitevt.OpISNOTNULL) {
			return true
		}
	}
	return false
}

// pickColumn writes median, quantile, argmin or argmax of row g.
func (c *manyAgg) pickColumn(r *sqlitevt.Result, g *mgroup, name string) error {
	flag := costly[name]
	if c.ps.innerNum&int(flag) == 0 {
		if name == "quantile" && c.qArg == nil {
			r.Null()
			return nil
		}
		return fmt.Errorf("tet: %s: %s was not planned", c.t.qualified, name)
	}
	var v float64
	var ok bool
	switch name {
	case "argmin", "argmax":
		id := g.argMin
		if name == "argmax" {
			id = g.argMax
		}
		if id == noArg {
			r.Null()
		} else {
			r.Int64(id)
		}
		return nil
	case "median":
		v, ok = c.quantile(g, 0.5)
	default:
		if c.qArg == nil {
			r.Null()
			return nil
		}
		q, err := parseQ(c.qArg)
		if err != nil {
			return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
		}
		v, ok = c.quantile(g, q)
	}
	if !ok || v != v {
		r.Null()
	} else {
		r.Float64(v)
	}
	return nil
}

// quantile is the q-quantile of row g's gathered values.
func (c *manyAgg) quantile(g *mgroup, q float64) (float64, bool) {
	if g.f32 != nil {
		return fold.Quantile(g.f32, q)
	}
	return fold.Quantile(g.f64, q)
}

// Close implements sqlitevt.Cursor: it records the files' statistics as
// one scan and gives back the memory the rows held.
func (c *manyAgg) Close() error {
	panicPoint("xClose")
	c.t.args.session.engine().Release(&c.held)
	c.rows, c.index = nil, nil
	if !c.start.IsZero() {
		c.t.record(&c.stats, c.start)
	}
	return nil
}

var _ = scan.ErrMemLimit
