package vtab

import "github.com/tetsql/tetsql/internal/sqlitevt"

// Output order of a cells scan. Rows come out chunk by chunk in grid
// row-major order, row-major inside each chunk. When the chunk grid has
// one chunk along every axis but the first, that is rowid order whatever
// the constraints (they only cut the box or skip chunks), so the rows are
// sorted by every prefix (d0, d1, …) of the dims, ascending.

// rowOrdered reports whether the scan's rows already come in the order
// SQLite asks for: info.OrderBy is d0, d1, …, dj ascending, optionally
// followed by rowid ascending (or is rowid alone); or, when SQLite needs
// only rows equal in the ORDER BY columns to be adjacent (GROUP BY,
// DISTINCT: sqlite3_vtab_distinct 1 or 2), any permutation of such a dims
// prefix, in either direction. Labels are never taken: their order is
// not their axis's.
func (t *cellsTable) rowOrdered(info *sqlitevt.IndexInfo) bool {
	ob := info.OrderBy
	if len(ob) == 0 || NoOmit {
		return false
	}
	for d := 1; d < len(t.dims); d++ {
		if t.geom.GridSize(d) > 1 {
			return false
		}
	}
	if ob[len(ob)-1].Column == -1 && !ob[len(ob)-1].Desc {
		ob = ob[:len(ob)-1] // rowid order refines any dims prefix
	}
	adjacent := info.Distinct == 1 || info.Distinct == 2
	var seen [64]bool
	for i, o := range ob {
		if o.Column < 0 || o.Column >= len(t.dims) || o.Column >= len(seen) || seen[o.Column] {
			return false
		}
		seen[o.Column] = true
		if !adjacent && (o.Column != i || o.Desc) {
			return false
		}
	}
	for i := range ob {
		if !seen[i] {
			return false // not a prefix of the dims
		}
	}
	return true
}
