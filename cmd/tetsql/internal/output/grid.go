package output

import "io"

// gridStyle describes the lines of a box, table or markdown grid. A rule
// with an empty left corner is not drawn.
type gridStyle struct {
	top, sep, bottom [3]string // left corner, junction, right corner
	fill             string    // horizontal line
	vert             string    // vertical line between cells
	markdown         bool      // escape |, mark right-aligned columns with ':'
	column           bool      // sqlite3's column mode: no lines, two spaces between cells, all left-aligned
}

var (
	boxStyle = gridStyle{
		top: [3]string{"┌", "┬", "┐"}, sep: [3]string{"├", "┼", "┤"},
		bottom: [3]string{"└", "┴", "┘"}, fill: "─", vert: "│",
	}
	tableStyle = gridStyle{
		top: [3]string{"+", "+", "+"}, sep: [3]string{"+", "+", "+"},
		bottom: [3]string{"+", "+", "+"}, fill: "-", vert: "|",
	}
	markdownStyle = gridStyle{sep: [3]string{"|", "|", "|"}, fill: "-", vert: "|", markdown: true}
	columnStyle   = gridStyle{sep: [3]string{"", "  ", ""}, fill: "-", column: true}
)

// grid writes box, table, markdown and column modes. It buffers a first
// window of rows (their formatted cells in one byte arena) to size the
// columns, then writes them and streams every later row with the same
// widths; a later, wider cell extends its row instead of being cut,
// except a text cell on a terminal (Options.FitWidth), which is cut to
// its column so that the grid stays within the window. Headers
// are centred, as in sqlite3. A column is right-aligned when its declared
// type is numeric, or when it has no declared type and every non-NULL value
// in the window is a number.
type grid struct {
	base
	style     *gridStyle
	streaming bool  // the window has been written
	widths    []int // column widths
	right     []bool
	forced    []bool // right-aligned by a negative Options.Widths entry
	sawNum    []bool
	sawOther  []bool
	arena     []byte // cells of the buffered rows, back to back
	ends      []int  // end offset in arena of each buffered cell
	cellW     []int  // display width of each buffered cell
	nrows     int    // rows in the window
	raw, disp []byte // scratch for formatting one cell
	cut       []byte // scratch for a cell cut to a fitted width

	// Fitting to the terminal (grid_fit.go): numW is the widest number
	// of each column in the window, shown the columns drawn (the rest
	// are one "…" column), fitted whether widths were narrowed.
	numW   []int
	shown  int
	fitted bool
}

func newGrid(mode Mode, w io.Writer, opts Options) *grid {
	g := &grid{base: newBase(w, opts), style: &boxStyle}
	switch mode {
	case Table:
		g.style = &tableStyle
	case Markdown:
		g.style = &markdownStyle
	case ColumnMode:
		g.style = &columnStyle
	}
	return g
}

// Header implements Writer.
func (g *grid) Header(cols []Column) error {
	if err := g.header(cols); err != nil {
		return err
	}
	n := len(cols)
	g.widths = make([]int, n)
	g.right = make([]bool, n)
	g.sawNum = make([]bool, n)
	g.sawOther = make([]bool, n)
	g.forced = make([]bool, n)
	for i := range n {
		w := g.fixedWidth(i)
		g.widths[i] = max(w, -w)
		g.forced[i] = w < 0
	}
	g.numW = make([]int, n)
	return nil
}

// fixedWidth is Options.Widths' entry for column i (0 = automatic).
func (g *grid) fixedWidth(i int) int {
	if i < len(g.opts.Widths) {
		return g.opts.Widths[i]
	}
	return 0
}

// cell formats v, a cell of column i, for display into g.disp and returns
// it with its width. The column's Options.Widths entry, or else
// Options.MaxWidth, cuts anything but numbers, which are never
// shortened.
func (g *grid) cell(i int, v any) ([]byte, int) {
	g.raw = appendText(g.raw[:0], v, g.opts.Null)
	g.disp = appendDisplay(g.disp[:0], g.raw, g.style.markdown)
	limit := g.opts.MaxWidth
	if w := g.fixedWidth(i); w != 0 {
		limit = max(w, -w)
	}
	if limit > 0 && !isNumber(v) {
		g.raw, _ = appendTruncated(g.raw[:0], g.disp, limit)
		g.disp, g.raw = g.raw, g.disp
	}
	return g.disp, displayWidth(g.disp)
}

// Row implements Writer.
func (g *grid) Row(vals []any) error {
	if err := g.check(vals); err != nil || len(vals) == 0 {
		return err
	}
	if g.streaming {
		g.buf = g.buf[:0]
		for i, v := range vals[:g.shown] {
			c, w := g.cell(i, v)
			if !isNumber(v) { // a later, wider number widens its row: never cut; text is, on a terminal
				c, w = g.fitCut(i, c, w)
			}
			g.buf = g.appendCell(g.buf, i, c, w, g.align(i))
		}
		if g.shown < len(vals) {
			g.buf = g.appendMore(g.buf, ellipsis)
		}
		g.buf = g.endLine(g.buf)
		g.write(g.buf)
		return g.err
	}
	for i, v := range vals {
		c, w := g.cell(i, v)
		g.arena = append(g.arena, c...)
		g.ends = append(g.ends, len(g.arena))
		g.cellW = append(g.cellW, w)
		g.widths[i] = max(g.widths[i], w)
		switch {
		case v == nil:
		case isNumber(v):
			g.sawNum[i] = true
			g.numW[i] = max(g.numW[i], w)
		default:
			g.sawOther[i] = true
		}
	}
	g.nrows++
	if g.nrows >= g.opts.window {
		g.flushWindow()
	}
	return g.err
}

// flushWindow fixes widths and alignment, then writes the top rule, the
// header and the buffered rows.
func (g *grid) flushWindow() {
	g.streaming = true
	ncol := len(g.cols)
	names := make([][]byte, ncol)
	nameW := make([]int, ncol)
	for i, c := range g.cols {
		d, w := g.cell(i, c.Name)
		names[i], nameW[i] = append([]byte(nil), d...), w
		g.widths[i] = max(g.widths[i], w)
		g.right[i] = g.forced[i] || numericType(c.Type) || c.Type == "" && g.sawNum[i] && !g.sawOther[i]
	}
	g.fit(g.numW)
	b := g.rule(g.buf[:0], &g.style.top)
	// Column mode shows its header and dashes only with Options.Header,
	// as sqlite3 does with .headers; box, table and markdown always do.
	// The names size the columns either way, as in sqlite3.
	if !g.style.column || g.opts.Header {
		for i := range names[:g.shown] {
			c, w := g.fitCut(i, names[i], nameW[i])
			b = g.appendCell(b, i, c, w, g.headerAlign(i))
		}
		if g.shown < ncol {
			b = g.appendMore(b, ellipsis)
		}
		b = g.endLine(b)
		b = g.rule(b, &g.style.sep)
	}
	g.write(b)
	start := 0
	for r := 0; r < g.nrows; r++ {
		b = b[:0]
		for i := 0; i < ncol; i++ {
			k := r*ncol + i
			if i < g.shown { // a number of the window is never wider than its column
				c, w := g.fitCut(i, g.arena[start:g.ends[k]], g.cellW[k])
				b = g.appendCell(b, i, c, w, g.align(i))
			}
			start = g.ends[k]
		}
		if g.shown < ncol {
			b = g.appendMore(b, ellipsis)
		}
		b = g.endLine(b)
		g.write(b)
	}
	g.buf = b
	g.arena, g.ends, g.cellW, g.nrows = nil, nil, nil, 0
}

// Cell alignments.
const (
	alignLeft = iota
	alignRight
	alignCenter
)

// headerAlign is the alignment of the header cell of column i: centred,
// as in sqlite3's box and table, but left in its column mode (right for
// a negative width, as there).
func (g *grid) headerAlign(i int) int {
	switch {
	case g.style.column && g.forced[i]:
		return alignRight
	case g.style.column:
		return alignLeft
	}
	return alignCenter
}

// align returns the alignment of data cells in column i.
func (g *grid) align(i int) int {
	if g.forced[i] || g.right[i] && !g.style.column {
		return alignRight
	}
	return alignLeft
}

// appendCell appends the separator before column i and the cell c of
// display width w, padded to the column width.
func (g *grid) appendCell(b []byte, i int, c []byte, w, align int) []byte {
	if g.style.column {
		if i > 0 {
			b = append(b, "  "...)
		}
		if align == alignRight {
			b = appendSpaces(b, max(g.widths[i]-w, 0))
			return append(b, c...)
		}
		b = append(b, c...)
		return appendSpaces(b, max(g.widths[i]-w, 0))
	}
	b = append(b, g.style.vert...)
	b = append(b, ' ')
	pad := max(g.widths[i]-w, 0)
	left := 0
	switch align {
	case alignRight:
		left = pad
	case alignCenter:
		left = pad / 2
	}
	b = appendSpaces(b, left)
	b = append(b, c...)
	b = appendSpaces(b, pad-left)
	return append(b, ' ')
}

// endLine closes a row (in column mode: without the last cell's padding).
func (g *grid) endLine(b []byte) []byte {
	if g.style.column {
		for len(b) > 0 && b[len(b)-1] == ' ' {
			b = b[:len(b)-1]
		}
	}
	b = append(b, g.style.vert...)
	return append(b, '\n')
}

// rule appends a horizontal rule with the given corners, or nothing if the
// style has none. Markdown's delimiter row ends right-aligned columns in ':'.
func (g *grid) rule(b []byte, corners *[3]string) []byte {
	if g.style.column && corners == &g.style.sep { // dashes under each header
		for i, w := range g.widths[:g.shown] {
			if i > 0 {
				b = append(b, "  "...)
			}
			for range w {
				b = append(b, '-')
			}
		}
		if g.shown < len(g.widths) {
			b = g.appendMore(b, "-")
		}
		return append(b, '\n')
	}
	if corners[0] == "" {
		return b
	}
	for i, w := range g.widths[:g.shown] {
		if i == 0 {
			b = append(b, corners[0]...)
		} else {
			b = append(b, corners[1]...)
		}
		n := w + 2
		if g.style.markdown && g.right[i] {
			n--
		}
		for range n {
			b = append(b, g.style.fill...)
		}
		if g.style.markdown && g.right[i] {
			b = append(b, ':')
		}
	}
	if g.shown < len(g.widths) { // the "…" column
		b = append(b, corners[1]...)
		for range 3 {
			b = append(b, g.style.fill...)
		}
	}
	b = append(b, corners[2]...)
	return append(b, '\n')
}

func appendSpaces(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

// Close implements Writer: it writes a window that never filled (or just
// the header for an empty result) and the bottom rule. Nothing is written
// for a result without columns.
func (g *grid) Close() error {
	if g.started && len(g.cols) > 0 && g.err == nil {
		if !g.streaming {
			g.flushWindow()
		}
		g.write(g.rule(g.buf[:0], &g.style.bottom))
	}
	return g.close()
}
