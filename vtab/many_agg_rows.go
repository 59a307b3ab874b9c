package vtab

import (
	"encoding/binary"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
)

// groupBytes is what the budget counts for one merged row, besides its
// gathered values.
const groupBytes = 512

// newGroup makes an empty merged row and indexes it.
func (c *manyAgg) newGroup(fileKey []string, keys []int64, fi int) *mgroup {
	nlab := len(c.t.tmpl.at.labelAxis)
	g := &mgroup{order: fi, fileKey: fileKey, keys: keys, argMin: noArg, argMax: noArg,
		files: make([]*string, c.t.nfix), filesSet: make([]bool, c.t.nfix), filesMixed: make([]bool, c.t.nfix),
		labels: make([]any, nlab), labelSet: make([]bool, nlab), mixed: make([]bool, nlab)}
	for range c.t.tmpl.at.geom.Rank() {
		g.fixed = append(g.fixed, -2) // -2: not seen yet
	}
	return g
}

// merge adds row r of file fi. A grouped result (by dims or file
// columns) shows only groups with elements, as one file's does: a file
// whose own aggregate is ungrouped (by names file columns only) gives
// one row even when empty, which makes no group.
func (c *manyAgg) merge(fi int, r *partRow) error {
	t := c.t
	if r.empty && (len(c.fileBy) > 0 || len(r.keys) > 0) {
		return nil
	}
	var key []byte
	var fileKey []string
	for _, col := range c.fileBy {
		v := t.fileValue(fi, col)
		s := "\x00NULL"
		if v != nil {
			s = *v
		}
		fileKey = append(fileKey, s)
		key = binary.AppendUvarint(key, uint64(len(s)))
		key = append(key, s...)
	}
	for _, k := range r.keys {
		key = binary.AppendVarint(key, k)
	}
	g := c.index[string(key)]
	if g == nil {
		if err := c.need("many-file rows", 1, "rows", groupBytes); err != nil {
			return err
		}
		g = c.newGroup(fileKey, r.keys, fi)
		c.index[string(key)] = g
		c.rows = append(c.rows, g)
	}
	if err := c.mergePicks(g, fi, r); err != nil {
		return err
	}
	contributes := r.stats.Count()+r.stats.NullCount() > 0
	first := g.stats.Count()+g.stats.NullCount() == 0
	if contributes && first {
		c.resetAgreement(g) // files without elements do not say what the row's labels are
	}
	if contributes || first {
		c.agree(g, fi, r)
	}
	g.stats = fold.Merge(g.stats, r.stats)
	return nil
}

// resetAgreement forgets what non-contributing files said about a row.
func (c *manyAgg) resetAgreement(g *mgroup) {
	clear(g.files)
	clear(g.filesSet)
	clear(g.filesMixed)
	clear(g.labels)
	clear(g.labelSet)
	clear(g.mixed)
	for a := range g.fixed {
		g.fixed[a] = -2
	}
}

// agree narrows what a row's file, label and pinned dim columns show to
// what file fi's row r agrees with.
func (c *manyAgg) agree(g *mgroup, fi int, r *partRow) {
	t := c.t
	for col := range t.nfix {
		v := t.fileValue(fi, col)
		switch {
		case !g.filesSet[col]:
			g.files[col], g.filesSet[col] = v, true
		case !sameText(g.files[col], v):
			g.filesMixed[col] = true
		}
	}
	for a := range g.fixed {
		switch f := r.fixed[a]; {
		case g.fixed[a] == -2:
			g.fixed[a] = f
		case g.fixed[a] != f:
			g.fixed[a] = -1
		}
	}
	for j := range g.labels {
		switch {
		case !r.labelOK[j]:
			g.mixed[j] = true
		case !g.labelSet[j]:
			g.labels[j], g.labelSet[j] = r.labels[j], true
		case !sameLabel(g.labels[j], r.labels[j]):
			g.mixed[j] = true
		}
	}
}

// sameText compares two TEXT-or-NULL values.
func sameText(a, b *string) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// sameLabel compares two labels as SQL does: an INTEGER and a REAL label
// are the same when they are the same number.
func sameLabel(a, b any) bool {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(float64); ok {
			return float64(x) == y && y >= -(1<<63) && y < 1<<63 && int64(y) == x
		}
	case float64:
		if y, ok := b.(int64); ok {
			return sameLabel(y, x)
		}
	}
	return a == b
}

// labelValue is label i of axis a as its column's SQL value.
func labelValue(at *arrayTable, a int, i int64) any {
	switch at.geom.LabelType(a) {
	case planner.LabelInteger:
		return at.geom.LabelInt(a, i)
	case planner.LabelReal:
		return at.geom.LabelReal(a, i)
	}
	return at.info.Labels[a][i]
}
