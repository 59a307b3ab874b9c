package vtab

import "github.com/tetsql/tetsql/internal/sqlitevt"

// Output order of a cells scan. Rows come out chunk by chunk in grid
// row-major order, row-major inside each chunk. When the chunk grid has
// one chunk along every axis but the first, that is rowid order whatever
// the constraints (they only cut the box or skip chunks), so the rows are
// sorted by every prefix (d0, d1, …) of the dims, ascending. An axis held
// to one index by an = constraint counts as one chunk (a point series
// "WHERE lat = 10 AND lon = 20 ORDER BY time" needs no sort).

// maxPinned is the most axes the pinned bit set of rowOrdered holds.
const maxPinned = 64

// rowOrdered reports whether the scan's rows already come in the order
// SQLite asks for: info.OrderBy is d0, d1, …, dj ascending, optionally
// followed by rowid ascending (or is rowid alone); or, when SQLite needs
// only rows equal in the ORDER BY columns to be adjacent (GROUP BY,
// DISTINCT: sqlite3_vtab_distinct 1 or 2), any permutation of such a dims
// prefix, in either direction. Labels are never taken: their order is
// not their axis's. Bit d of pinned is set when an = constraint holds
// axis d to one index: such an axis is constant, so it may appear
// anywhere in the ORDER BY and be left out of the prefix.
func (t *cellsTable) rowOrdered(info *sqlitevt.IndexInfo, pinned uint64) bool {
	ob := info.OrderBy
	if len(ob) == 0 || NoOmit {
		return false
	}
	for d := 1; d < len(t.dims); d++ {
		if t.geom.GridSize(d) > 1 && (d >= maxPinned || pinned&(1<<d) == 0) {
			return false
		}
	}
	if ob[len(ob)-1].Column == -1 && !ob[len(ob)-1].Desc {
		ob = ob[:len(ob)-1] // rowid order refines any dims prefix
	}
	adjacent := info.Distinct == 1 || info.Distinct == 2
	// Pinned axes are constant: drop them from both the ORDER BY and the
	// dims; what is left must be a prefix of the remaining dims.
	var seen [maxPinned]bool
	var want []int // the unpinned axes, in order
	for d := range t.dims {
		if d >= maxPinned || pinned&(1<<d) == 0 {
			want = append(want, d)
		}
	}
	n := 0
	for _, o := range ob {
		if o.Column < 0 || o.Column >= len(t.dims) || o.Column >= maxPinned {
			return false
		}
		if pinned&(1<<o.Column) != 0 {
			continue
		}
		if seen[o.Column] {
			return false
		}
		seen[o.Column] = true
		if !adjacent && (o.Column != want[n] || o.Desc) {
			return false
		}
		n++
	}
	for _, d := range want[:n] {
		if !seen[d] {
			return false // not a prefix of the dims
		}
	}
	return true
}
