package output

import "sort"

// Fitting a grid to the terminal (Options.FitWidth). The columns keep
// the widths their first window of rows asks for while the whole line
// fits, and a text cell of a later row wider than its column is cut to
// it with "…" (a later, wider number still widens its row). Otherwise
// the widest text columns give up width first, down to a floor of
// fitFloor columns (a number is never cut: a column's floor covers its
// widest number; a column whose width Options.Widths sets keeps it).
// When even the floors do not fit, the grid shows the columns from the
// left that do and ends each line with a one-column "…" that stands for
// the rest (HiddenColumns counts them), as DuckDB's shell does with the
// middle ones.

// fitFloor is the width a text column may be narrowed to.
const fitFloor = 8

// fit sets g.shown and narrows g.widths so that a line is at most
// g.opts.FitWidth columns wide; numW holds the widest number of each
// column, which no column is narrowed below.
func (g *grid) fit(numW []int) {
	n := len(g.widths)
	g.shown = n
	limit := g.opts.FitWidth
	if limit <= 0 || g.style.markdown || g.lineWidth(g.widths, n) <= limit {
		return
	}
	g.fitted = true
	floors := make([]int, n)
	for i, w := range g.widths {
		floors[i] = min(w, max(fitFloor, numW[i]))
		if g.fixedWidth(i) != 0 { // a width the user set (.width) stays
			floors[i] = w
		}
	}
	if g.lineWidth(floors, n) > limit {
		// Show the most leading columns that fit at their floors, beside
		// the "…" column.
		k, w := 1, g.lineWidth(floors, 1)+g.moreWidth()
		for k < n && w+g.colWidth(floors[k]) <= limit {
			w += g.colWidth(floors[k])
			k++
		}
		g.shown = k
		limit -= g.moreWidth()
	}
	g.narrow(floors, limit)
}

// narrow takes width from the shown columns until a line is at most
// limit wide, as if one column at a time from the widest (the leftmost
// of equals), none below its floor: every column is capped at a level
// L+1, then the leftmost of those at L+1 lose one more. The level is
// found by bisection, so the work does not grow with the excess width
// (a megabyte of text in column mode, which cuts no cell beforehand).
func (g *grid) narrow(floors []int, limit int) {
	k := g.shown
	excess := g.lineWidth(g.widths, k) - limit
	if excess <= 0 {
		return
	}
	saved := func(level int) int { // what capping at level saves
		n := 0
		for i, w := range g.widths[:k] {
			n += w - max(floors[i], min(w, level))
		}
		return n
	}
	if saved(0) <= excess { // floors only: the line fits just, or overflows
		copy(g.widths, floors[:k])
		return
	}
	widest := 0
	for _, w := range g.widths[:k] {
		widest = max(widest, w)
	}
	level := sort.Search(widest+1, func(l int) bool { return saved(l) < excess }) // capping at level is not enough
	rest := excess - saved(level)
	for i, w := range g.widths[:k] {
		g.widths[i] = max(floors[i], min(w, level))
		if rest > 0 && g.widths[i] == level && level > floors[i] {
			g.widths[i]--
			rest--
		}
	}
}

// colWidth is what one column of width w adds to a line.
func (g *grid) colWidth(w int) int {
	if g.style.column {
		return w + 2
	}
	return w + 3
}

// fitCut cuts the cell c of width w to column i's width, with "…", in a
// grid on a terminal (FitWidth set; not markdown, which is not fitted):
// a cell of the window in a narrowed column, or a text cell of a later
// row wider than its column, which would otherwise widen its row past
// the terminal's edge. Elsewhere it returns c as it is. Callers never
// pass a number of a later row: numbers are never cut.
func (g *grid) fitCut(i int, c []byte, w int) ([]byte, int) {
	if g.opts.FitWidth <= 0 || g.style.markdown || w <= g.widths[i] {
		return c, w
	}
	g.cut, w = appendTruncated(g.cut[:0], c, max(g.widths[i], 1))
	return g.cut, w
}

// lineWidth is the terminal width of a line of the first k columns
// with the given widths.
func (g *grid) lineWidth(widths []int, k int) int {
	total := 0
	for _, w := range widths[:k] {
		total += w
	}
	if g.style.column {
		return total + 2*max(k-1, 0)
	}
	return total + 3*k + 1 // "│ " before, " " after each cell, "│" at the end
}

// moreWidth is the width the "…" column adds to a line.
func (g *grid) moreWidth() int {
	if g.style.column {
		return 3 // two spaces and "…"
	}
	return 4 // "│ … "
}

// HiddenColumns reports how many columns a grid left out to fit the
// terminal (0 for every other writer, and before the grid has written
// its first rows).
func HiddenColumns(w Writer) int {
	if g, ok := w.(*grid); ok && g.streaming {
		return len(g.widths) - g.shown
	}
	return 0
}

// appendMore appends the "…" column that stands for hidden columns;
// fill is the text of its cell ("…" or, in a rule, the rule's line).
func (g *grid) appendMore(b []byte, fill string) []byte {
	if g.style.column {
		return append(append(b, "  "...), fill...)
	}
	return append(append(append(append(b, g.style.vert...), ' '), fill...), ' ')
}
