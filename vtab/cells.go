package vtab

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// NoOmit, when true, makes BestIndex leave every constraint for SQLite to
// re-check (tests use it to prove the cursor's own filtering exact).
var NoOmit = false

// cellsTable is the element-level table of one dataset.
type cellsTable struct {
	arrayTable
	valueCol int
}

// arrayTable is what cells and aggregate tables share: the dataset, its
// geometry, the reader of its chunks, and the dim and label columns that
// open their schemas.
type arrayTable struct {
	readOnly
	h         *scan.Handle
	arr       *scan.Array
	info      *array.Info
	reader    scan.Reader // under the chunk size limit of the session when the table was created
	geom      *planner.Geometry
	qualified string
	dims      []string // column names of the axes
	labelAxis []int    // axis of each label column
	session   *Session
	conn      *connState // the connection's, for tet_last_scan()
	// quiet: the table is one file of a many-file table, which records
	// its scans as one (many_cursor.go).
	quiet bool
}

// newArrayTable resolves the dataset of a table and returns the
// declarations of its dim and label columns: one INTEGER column per axis,
// then a <dim>_label column per labelled axis (TEXT, or INTEGER or REAL
// for numeric labels: labels.go).
func newArrayTable(a tableArgs, h *scan.Handle) (arrayTable, []string, error) {
	src := h.Source()
	arr, err := src.Array(a.dataset)
	if a.byID {
		arr, err = src.ArrayAt(a.datasetID)
	}
	if err != nil {
		return arrayTable{}, nil, fmt.Errorf("tet: table %q: %w", a.table, err)
	}
	info := arr.Info()
	geom, err := planner.NewGeometry(info.Shape, info.ChunkShape, info.Labels)
	if err != nil {
		return arrayTable{}, nil, fmt.Errorf("tet: dataset %q: %w", info.Name, err)
	}
	qualified := a.schema + "." + a.table
	var limit int64
	if a.session != nil {
		limit = a.session.MaxChunkBytes
	}
	t := arrayTable{readOnly: readOnly{a.table}, h: h, arr: arr, info: info, geom: geom,
		reader: scan.NewReader(arr, qualified, limit), qualified: qualified, dims: cellsColumns(info),
		session: a.session, conn: a.conn}
	if arr.Scalar() {
		t.dims = nil // a 0-d array: the one element has no coordinates
	}
	var cols []string
	for _, d := range t.dims {
		cols = append(cols, quoteIdent(d)+" INTEGER")
	}
	for ax := range t.dims {
		if info.Labels != nil && info.Labels[ax] != nil {
			t.labelAxis = append(t.labelAxis, ax)
			cols = append(cols, quoteIdent(t.dims[ax]+"_label")+" "+t.labelColumnDecl(ax, a.session != nil && a.session.TimeLabels))
		}
	}
	return t, cols, nil
}

// cellsColumns returns the axis column names of the dataset's cells and
// aggregate tables: the footer's dim_names (a NUL byte, which SQL text
// cannot carry, replaced by "_") when they make distinct columns that
// clash with no other column of either table, else d0, d1, ….
func cellsColumns(ds *array.Info) []string {
	names := make([]string, ds.Rank())
	seen := map[string]bool{"rowid": true}
	for _, n := range reservedColumns {
		seen[n] = true
	}
	ok := ds.DimNames != nil
	for a := range names {
		names[a] = strings.ReplaceAll(dimName(ds, a), "\x00", "_")
		for _, n := range []string{names[a], names[a] + "_label"} {
			k := asciiLower(n)
			if seen[k] || n == "" {
				ok = false
			}
			seen[k] = true
		}
	}
	if !ok {
		for a := range names {
			names[a] = fmt.Sprintf("d%d", a)
		}
	}
	return names
}

// dimName is the file's name of axis a as it stores it ("" stays ""),
// or d<a> when the file names no axis.
func dimName(in *array.Info, a int) string {
	if in.DimNames != nil {
		return in.DimNames[a]
	}
	return fmt.Sprintf("d%d", a)
}

// reservedColumns are the columns after the dims and labels: the cells
// table's value, and the aggregate table's results and hidden by
// (not q, see qColumnName).
var reservedColumns = append([]string{"value", "by"}, aggResults...)

func newCells(ctx sqlitevt.Context, a tableArgs, h *scan.Handle) (*cellsTable, error) {
	at, cols, err := newArrayTable(a, h)
	if err != nil {
		return nil, err
	}
	t := &cellsTable{arrayTable: at, valueCol: len(cols)}
	cols = append(cols, "value "+valueType(t.info.DType))
	if err := ctx.Declare("CREATE TABLE x(" + strings.Join(cols, ", ") + ")"); err != nil {
		return nil, fmt.Errorf("tet: table %q: %w", a.table, err)
	}
	return t, nil
}

// valueType is the declared type of a value column: FLOAT16 and FLOAT32
// for f16 and f32, REAL for f64, and for integer dtypes their width and
// sign in bits as numpy and Arrow spell them (INT8 … INT64, UINT8 …
// UINT64). FLOAT16 and FLOAT32 contain "FLOA", so SQLite gives them REAL
// affinity; the width in the name tells exports (float32) and clients
// (printing and scanning in single precision) what the values are,
// where a plain FLOAT would not: a native table's FLOAT means double.
// Every integer name contains "INT", so SQLite gives those INTEGER
// affinity exactly as for INTEGER; exports read the width from the name.
func valueType(dt array.DType) string {
	switch dt {
	case array.F16:
		return "FLOAT16"
	case array.F32:
		return "FLOAT32"
	case array.F64:
		return "REAL"
	}
	bits := strconv.Itoa(8 * dt.Size())
	if dt.IsSigned() {
		return "INT" + bits
	}
	return "UINT" + bits
}

// target maps a column number to a planner target.
func (t *cellsTable) target(col int) (planner.Target, bool) {
	switch {
	case col == -1:
		return planner.RowID(), true
	case col >= 0 && col < len(t.dims):
		return planner.Dim(col), true
	case col >= len(t.dims) && col < t.valueCol:
		return planner.Label(t.labelAxis[col-len(t.dims)]), true
	}
	return planner.Target{}, false
}

// Cost model: reading a row costs 1, decoding a chunk a fixed amount.
const chunkCost = 1000

// BestIndex consumes dim, label and rowid constraints the planner can use
// and prices the plan by the rows in the chunks expected to survive. It
// never fails: an unusable constraint is simply left to SQLite. A TEXT
// label term prunes only under the BINARY collation (see isBinary).
func (t *cellsTable) BestIndex(info *sqlitevt.IndexInfo) error {
	panicPoint("xBestIndex")
	var parts []string
	var cons []planner.Constraint
	var at []int // index in info.Constraints of each of cons
	allOmitted := true
	leftover := false // a term other than a pushed label term is left to SQLite
	labels := false   // a pushed label term is re-checked by SQLite
	limit, offset := -1, -1
	var pinned uint64 // axes an = constraint holds to one index
	notNull := -1     // "value IS NOT NULL": consumed only by a top-k
	for i := range info.Constraints {
		c := &info.Constraints[i]
		switch c.Op {
		case sqlitevt.OpLIMIT:
			limit = i
			continue
		case sqlitevt.OpOFFSET:
			offset = i
			continue
		}
		if c.Op == sqlitevt.OpISNOTNULL && c.Column == t.valueCol && c.Usable && notNull < 0 {
			notNull, allOmitted = i, false
			continue
		}
		if op, ok := mapOp(c.Op); ok && c.Usable && c.Column == t.valueCol {
			// The scan evaluates the term exactly as SQLite would (the
			// column has numeric affinity: see newValueTerm).
			c.ArgIndex, c.Omit = len(parts), !NoOmit
			parts = append(parts, "v"+opNames[op])
			if NoOmit {
				allOmitted = false
			}
			leftover = true // the top-k does not apply value terms (cells_topk.go)
			continue
		}
		tg, ok1 := t.target(c.Column)
		op, ok2 := mapOp(c.Op)
		if !c.Usable || !ok1 || !ok2 || t.geom.Usable(tg, op)&planner.Prunes == 0 || !t.labelUsable(tg, c) ||
			i >= maxInListSlot && op == planner.OpEQ && t.InListColumn(c.Column) {
			// Past SQLite's 32nd constraint an IN list cannot be read
			// whole, and run per value it would be re-checked under the
			// wrong affinity (cells_in.go): SQLite applies it alone.
			allOmitted, leftover = false, true
			continue
		}
		c.ArgIndex = len(parts)
		// Dims and rowid are filtered exactly (numeric affinity is applied
		// to TEXT values as SQLite would), and so are numeric labels where
		// the planner resolves them exactly; TEXT label comparisons are
		// left for SQLite to re-check, since numbers compare to TEXT by
		// affinity.
		c.Omit = (tg.Kind != planner.KindLabel || t.omitLabel(tg, op)) && !NoOmit
		if !c.Omit {
			allOmitted = false
			labels = labels || tg.Kind == planner.KindLabel
			leftover = leftover || tg.Kind != planner.KindLabel
		}
		parts = append(parts, t.encode(tg)+opNames[op])
		cons, at = append(cons, planner.Constraint{Target: tg, Op: op}), append(at, i)
		if op == planner.OpEQ && tg.Kind == planner.KindDim {
			pinned |= 1 << tg.Axis // one index: one chunk along the axis
		}
	}
	if tooManyToOmit(info) {
		// SQLite re-checks the terms past its 16th whatever omit says: the
		// plan may then consume no LIMIT, and no top-k.
		allOmitted, leftover = false, true
	}
	idxNum := 0
	if len(parts) > 0 {
		idxNum |= idxConstraints
	}
	// LIMIT and OFFSET may be consumed only when SQLite has nothing left
	// to do with the rows: every constraint consumed exactly and no ORDER
	// BY (the scan's chunk order is not one SQLite can be told about, so
	// with an ORDER BY SQLite sorts and must see every row first).
	// A top-k (cells_topk.go) consumes the ORDER BY with them, also under
	// label terms SQLite re-checks: then SQLite applies the OFFSET.
	topk, desc := t.topK(info, !leftover && !NoOmit, limit, offset)
	if topk && notNull >= 0 {
		info.Constraints[notNull].ArgIndex, info.Constraints[notNull].Omit = len(parts), true
		parts = append(parts, "N")
		idxNum |= idxNotNull
	}
	if topk || allOmitted && !NoOmit && len(info.OrderBy) == 0 && limit >= 0 && info.Constraints[limit].Usable {
		info.Constraints[limit].ArgIndex, info.Constraints[limit].Omit = len(parts), true
		parts = append(parts, "L")
		idxNum |= idxLimit
		if offset >= 0 && info.Constraints[offset].Usable {
			info.Constraints[offset].ArgIndex, info.Constraints[offset].Omit = len(parts), !labels
			parts = append(parts, "O")
			idxNum |= idxOffset
		}
	}
	switch {
	case topk:
		idxNum |= idxTopK
		if desc {
			idxNum |= idxDesc
		}
		if labels {
			idxNum |= idxRecheck
		}
		info.OrderByConsumed = true
	case t.rowOrdered(info, pinned):
		info.OrderByConsumed = true // cells_order.go
		idxNum |= idxOrdered
	}
	est := t.estimate(info, at, cons)
	info.IdxNum, info.IdxStr = int64(idxNum), strings.Join(parts, ",")
	info.EstimatedRows = max(est.Selected, 1)
	info.EstimatedCost = float64(est.Rows) + float64(est.Chunks)*chunkCost + 1
	if est.Selected == 1 && allEqualities(cons, len(t.dims)) {
		info.IdxFlags |= sqlitevt.IndexScanUnique
	}
	return nil
}

// allEqualities reports whether cons fix every axis (or the rowid) by =.
func allEqualities(cons []planner.Constraint, rank int) bool {
	var fixed [planner.MaxRank]bool
	n := 0
	for _, c := range cons {
		if c.Op != planner.OpEQ {
			continue
		}
		if c.Target.Kind == planner.KindRowID {
			return true
		}
		if c.Target.Kind == planner.KindDim && !fixed[c.Target.Axis] {
			fixed[c.Target.Axis] = true
			n++
		}
	}
	return n == rank
}

// Open starts a cursor; it pins the source until Close.
func (t *cellsTable) Open() (sqlitevt.Cursor, error) {
	panicPoint("xOpen")
	if err := t.session.engine().Pin(t.arr.Source(), t.qualified); err != nil {
		return nil, err
	}
	c := &cellsCursor{t: t}
	c.s.Init(t.reader, t.session.engine())
	c.s.Quiet = t.quiet
	return c, nil
}

// Disconnect releases the table's file handle.
func (t *cellsTable) Disconnect() error { return t.release() }

// Destroy is Disconnect: dropping the table never touches the file.
func (t *cellsTable) Destroy() error { return t.release() }
