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
	idxTopK = 1 << (iota + 3) // ORDER BY value consumed: rows come from scan.TopK
	idxDesc                   // the top-k is descending
	idxRecheck                // SQLite re-checks label terms, then applies the OFFSET
)

// MaxTopK is the largest LIMIT + OFFSET, known while planning (a literal
// or a bound parameter), that a top-k takes; above it the query is
// planned as before (a scan, sorted by SQLite). A LIMIT SQLite cannot see
// while planning (LIMIT -1, an expression) is checked against the memory
// limit when the query runs.
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
// plan, sorted, when it does not.
func (t *cellsTable) topK(info *sqlitevt.IndexInfo, exact bool, limit, offset int) (ok, desc bool) {
	ob := info.OrderBy
	if !exact || limit < 0 || !info.Constraints[limit].Usable || offset >= 0 && !info.Constraints[offset].Usable {
		return false, false
	}
	if len(ob) == 0 || len(ob) > 2 || ob[0].Column != t.valueCol || len(ob) == 2 && (ob[1].Column != -1 || ob[1].Desc) {
		return false, false
	}
	n := int64(0)
	if v := info.Constraints[limit].RHS; v != nil {
		k, isInt := v.(int64)
		if !isInt || k < 0 || k > MaxTopK {
			return false, false // LIMIT -1 is no limit: nothing to bound the heap by
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
	on   bool // the current Filter is a top-k
	tk   scan.TopK
	pos  int
	held int64 // what the top-k holds against the session's memory limit
}

// startTopK runs the top-k of the plan (already reset) for LIMIT limit
// (-1: none) and OFFSET offset, after sizing its buffers against the
// session's memory limit. With recheck, SQLite re-checks label terms and
// then applies the OFFSET.
func (c *cellsCursor) startTopK(desc, recheck bool, offset, limit int64) error {
	k := &c.tk
	sess := c.t.session.engine()
	sess.Release(&k.held)
	k.on, k.pos = true, 0
	if recheck {
		if limit >= 0 && offset <= 1<<63-1-limit && c.labelsExact() {
			limit += offset
		} else {
			limit = -1 // every row of the plan, for SQLite to filter
		}
		offset = 0
	}
	if limit < 0 {
		limit = 1<<63 - 1
	}
	b := sess.Budget(c.t.qualified)
	rows := c.plan.SelectedRows() // the heap's size: LIMIT + OFFSET at most
	if limit < rows && offset < rows-limit {
		rows = limit + offset
	}
	err := b.Need("ORDER BY value LIMIT", rows, "rows", scan.TopKEntryBytes)
	if err == nil {
		err = b.Need("ordering chunks by their statistics", min(c.plan.ChunkCount(), 1<<20), "chunks", scan.TopKChunkBytes)
	}
	if err == nil {
		k.held = b.Hold()
		err = k.tk.Run(&c.t.reader, sess, &c.plan, limit, offset, desc, &c.s.Stats)
	}
	if err == nil && k.tk.Len() > 0 {
		c.s.Stats.Rows++ // the first row is current
	}
	if err != nil {
		k.tk = scan.TopK{}
		sess.SetErr(err) // the driver returns it whole (errors.Is)
		return err
	}
	return nil
}

// labelsExact reports whether the plan selects exactly the rows whose
// labels match the label terms of this Filter.
func (c *cellsCursor) labelsExact() bool {
	for i, cn := range c.cons {
		if cn.Target.Kind == planner.KindLabel && !c.plan.Honoured(i) {
			return false
		}
	}
	return true
}

// next moves a top-k cursor to its next row.
func (k *topkCursor) next(st *scan.ScanStats) {
	if k.pos < k.tk.Len() {
		k.pos++
		if k.pos < k.tk.Len() {
			st.Rows++
		}
	}
}

// eof reports the end of a top-k's rows.
func (k *topkCursor) eof() bool { return k.pos >= k.tk.Len() }

// column writes column col of the current top-k row: its dims and labels
// come from its rowid.
func (c *cellsCursor) topkColumn(r *sqlitevt.Result, col int) error {
	k, t := &c.tk, c.t
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
		r.Text(t.info.Labels[tg.Axis][idx])
	}
	return nil
}
