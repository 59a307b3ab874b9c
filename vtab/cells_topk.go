package vtab

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// Top-k on a cells table: "ORDER BY value [DESC] LIMIT k [OFFSET m]"
// answered by scan.TopK, whose rows come out in the order of
// "ORDER BY value [DESC], rowid" (ties by ascending rowid, NULL first
// ascending and last descending).

// idxNum bits of a top-k plan (beside those of plan.go).
const (
	idxTopK    = 1 << (iota + 3) // ORDER BY value consumed: rows come from scan.TopK
	idxDesc                      // the top-k is descending
	idxRecheck                   // SQLite re-checks label terms, then applies the OFFSET
	idxNotNull                   // "value IS NOT NULL" consumed: NULL (NaN) elements left out
)

// MaxTopK is the largest LIMIT + OFFSET, known while planning (a literal
// or a bound parameter), that a top-k takes; above it the query is
// planned as before (a scan, sorted by SQLite). A LIMIT SQLite cannot see
// while planning (LIMIT -1, an expression) is served in pages of at most
// MaxTopK rows (see startTopK).
const MaxTopK = 1 << 20

// topK reports whether the query is a top-k the table answers exactly:
// an ORDER BY of exactly value (ASC or DESC), optionally followed by
// rowid ASC (the order the top-k produces anyway); a usable LIMIT (and
// OFFSET, if any); every other constraint consumed exactly or a label
// term the plan prunes by (exact), so that no value term or term on
// another column is left for SQLite to filter; and a LIMIT + OFFSET,
// where SQLite knows them while planning, of at most MaxTopK.
//
// SQLite re-checks label terms (a number compared with a label follows
// affinity rules the table does not see) and, with them, applies the
// OFFSET itself (it always applies the LIMIT): the top-k then emits the
// best LIMIT + OFFSET rows of the plan when the plan selects exactly the
// rows whose labels match (planner.Plan.Honoured), and every row of the
// plan in order, page by page, when it does not.
func (t *cellsTable) topK(info *sqlitevt.IndexInfo, exact bool, limit, offset int) (ok, desc bool) {
	ob := info.OrderBy
	if !exact || limit < 0 || !info.Constraints[limit].Usable || offset >= 0 && !info.Constraints[offset].Usable {
		return false, false
	}
	if len(ob) == 0 || len(ob) > 2 || ob[0].Column != t.valueCol || len(ob) == 2 && (ob[1].Column != -1 || ob[1].Desc) {
		return false, false
	}
	for _, c := range info.Constraints {
		if c.Column == t.valueCol && c.ArgIndex >= 0 {
			return false, false // value terms: scan.TopK does not apply them (yet), whoever consumes them
		}
	}
	n := int64(0)
	if v := info.Constraints[limit].RHS; v != nil {
		k, isInt := v.(int64)
		if !isInt || k < 0 || k > MaxTopK {
			return false, false // a LIMIT too large for one page: SQLite sorts
		}
		n = k
	}
	if offset >= 0 {
		if v := info.Constraints[offset].RHS; v != nil {
			if m, isInt := v.(int64); !isInt || m > MaxTopK-n {
				return false, false
			}
		}
	}
	return true, ob[0].Desc
}

// topkCursor is the state of a cells cursor serving a top-k plan.
type topkCursor struct {
	tk   scan.TopK
	pos  int   // current row in the page
	left int64 // rows still to emit, the current one included
	page int64 // rows per page
	held int64 // what the top-k holds against the session's memory limit
}

// minTopKPage is the smallest page a top-k is given room for before it
// is refused: smaller pages would mean one pass over the data per few rows.
const minTopKPage = 1024

// startTopK runs the top-k of the plan (already reset) for LIMIT limit
// (-1: none) and OFFSET offset. With recheck, SQLite re-checks label
// terms and then applies the OFFSET. Rows come in pages as large as the
// rows wanted, up to MaxTopK and the session's memory limit; a limit that
// cannot hold minTopKPage rows (or the rows wanted, if fewer) refuses the
// query before anything is allocated.
func (c *cellsCursor) startTopK(desc, recheck, notNull bool, offset, limit int64) error {
	if len(c.vterms) > 0 {
		return fmt.Errorf("tet: %s: internal error: a top-k plan with value terms", c.t.qualified)
	}
	if c.tk == nil {
		c.tk = new(topkCursor)
	}
	k := c.tk
	sess := c.t.session.engine()
	sess.Release(&k.held)
	c.topk, k.pos = true, 0
	const maxInt = 1<<63 - 1
	want, skip := int64(-1), offset // rows wanted (-1: all), rows to skip here
	if limit >= 0 && offset <= maxInt-limit && (!recheck || c.labelsExact()) {
		want = limit + offset
	}
	if recheck {
		skip = 0 // SQLite skips the OFFSET after its re-check
	}
	if sel := c.plan.SelectedRows(); want < 0 || want > sel {
		want = sel
	}
	k.left = want - skip
	b := sess.Budget(c.t.qualified)
	err := b.Need("ordering chunks by their statistics", min(c.plan.ChunkCount(), 1<<20), "chunks", scan.TopKChunkBytes)
	k.page = min(want, MaxTopK, max(b.Left()/scan.TopKEntryBytes, min(want, minTopKPage)))
	if err == nil {
		err = b.Need("ORDER BY value LIMIT", k.page, "rows", scan.TopKEntryBytes)
	}
	if err == nil {
		k.held = b.Hold()
		err = k.tk.Run(&c.t.reader, sess, &c.plan, k.page, desc, notNull, &c.s.Stats)
	}
	for err == nil && skip > 0 && k.pos < k.tk.Len() {
		d := min(skip, int64(k.tk.Len()-k.pos))
		k.pos, skip = k.pos+int(d), skip-d
		err = k.settle()
	}
	if err == nil {
		err = k.settle()
	}
	if err != nil {
		k.tk, k.left = scan.TopK{}, 0
		sess.SetErr(err) // the driver returns it whole (errors.Is)
		return err
	}
	if !k.eof() {
		c.s.Stats.Rows++ // the first row is current
	}
	return nil
}

// settle moves past the end of a page to the next page, if rows are
// still wanted.
func (k *topkCursor) settle() error {
	for k.left > 0 && k.pos >= k.tk.Len() {
		more, err := k.tk.More(k.page)
		if err != nil || !more {
			return err
		}
		k.pos = 0
	}
	return nil
}

// labelsExact reports whether the plan selects exactly the rows whose
// labels match the label terms of this Filter.
func (c *cellsCursor) labelsExact() bool {
	if c.inHull {
		return false // an IN list narrowed the scan to a superset (cells_in.go)
	}
	for i, cn := range c.cons {
		if cn.Target.Kind == planner.KindLabel && !c.plan.Honoured(i) {
			return false
		}
	}
	return true
}

// topkNext moves a top-k cursor to its next row; a failure to read the
// next page is kept for the driver, which returns it whole.
func (c *cellsCursor) topkNext() error {
	err := c.tk.next(&c.s.Stats)
	if err != nil {
		c.t.session.engine().SetErr(err)
	}
	return err
}

// next moves a top-k cursor to its next row.
func (k *topkCursor) next(st *scan.ScanStats) error {
	if k.eof() {
		return nil
	}
	k.pos++
	k.left--
	if err := k.settle(); err != nil {
		return err
	}
	if !k.eof() {
		st.Rows++
	}
	return nil
}

// eof reports the end of a top-k's rows.
func (k *topkCursor) eof() bool { return k.left <= 0 || k.pos >= k.tk.Len() }

// column writes column col of the current top-k row: its dims and labels
// come from its rowid.
func (c *cellsCursor) topkColumn(r *sqlitevt.Result, col int) error {
	k, t := c.tk, c.t
	i := k.pos
	if col == t.valueCol {
		v, null := k.tk.Value(i)
		switch {
		case null:
			r.Null()
		case v.Real:
			r.Float64(v.F)
		default:
			r.Int64(v.I)
		}
		return nil
	}
	tg, ok := t.target(col)
	if !ok || tg.Kind == planner.KindRowID {
		return fmt.Errorf("tet: %s: no column %d", t.qualified, col)
	}
	idx := k.tk.Row(i)
	for a := len(t.dims) - 1; a > tg.Axis; a-- {
		idx /= t.info.Shape[a]
	}
	idx %= t.info.Shape[tg.Axis]
	if tg.Kind == planner.KindDim {
		r.Int64(idx)
	} else {
		t.writeLabel(r, tg.Axis, idx) // as the column is typed (labels.go)
	}
	return nil
}
