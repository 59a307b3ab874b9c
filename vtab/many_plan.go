package vtab

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// Planning a many-file table. The terms on the inner columns (dims,
// labels, value, by, q) are planned by the template file's table on a
// copy of the IndexInfo whose column numbers are shifted past file and
// the hive keys; the terms on file and the hive keys choose files. idxStr
// is the inner table's idxStr, then "|", then one "<col>:<op>" entry per
// file term (col counting file as 0); their arguments follow the inner
// ones. idxNum is the inner table's.
//
// Nothing the inner plan would consume across the files as a whole is
// offered to it: no ORDER BY (rows come file by file), no LIMIT or OFFSET,
// no rowid term. On a cells table a label term is always re-checked by
// SQLite (the template's labels decide whether the planner resolves it
// exactly, and another file's may not). File terms prune files; on a
// cells table SQLite re-checks them, on an aggregate table (whose output
// rows may hold no file) they are consumed and must be decided exactly
// (manyCursor.pick fails a statement whose term it cannot decide).

// fileOps are the operators file terms are taken with.
var fileOps = map[sqlitevt.ConstraintOp]bool{
	sqlitevt.OpEQ: true, sqlitevt.OpLT: true, sqlitevt.OpLE: true, sqlitevt.OpGT: true, sqlitevt.OpGE: true,
	sqlitevt.OpLIKE: true, sqlitevt.OpGLOB: true, sqlitevt.OpNE: true, sqlitevt.OpIS: true, sqlitevt.OpISNOT: true,
	sqlitevt.OpISNULL: true, sqlitevt.OpISNOTNULL: true,
}

// manyUnapplied is the idxNum bit of an aggregate plan that leaves a term
// on a file column to SQLite: SQLite would apply it to the output rows,
// whose file columns may be NULL (a merged row of several files), and
// drop rows it should keep, so Filter refuses such a plan. BestIndex
// prices it out too, so that SQLite prefers any plan that takes the term.
const manyUnapplied = 1 << 20

// BestIndex implements sqlitevt.Table.
func (t *manyTable) BestIndex(info *sqlitevt.IndexInfo) error {
	panicPoint("xBestIndex")
	inner := *info
	inner.OrderBy, inner.Distinct, inner.OrderByConsumed = nil, 0, false
	inner.Constraints = make([]sqlitevt.Constraint, len(info.Constraints))
	inner.ColUsed = info.ColUsed >> t.nfix
	if info.ColUsed&(1<<63) != 0 {
		inner.ColUsed |= ^uint64(0) << (63 - t.nfix)
	}
	const away = -1 << 20 // a column number no inner table has
	for i, c := range info.Constraints {
		ic := c
		ic.ArgIndex, ic.Omit = -1, false
		switch {
		case c.Op == sqlitevt.OpLIMIT || c.Op == sqlitevt.OpOFFSET || c.Column < t.nfix:
			ic.Column, ic.Usable = away, false
		default:
			ic.Column -= t.nfix
		}
		inner.Constraints[i] = ic
	}
	if err := t.tmpl.table().BestIndex(&inner); err != nil {
		return err
	}
	nargs := 0
	for i := range info.Constraints {
		ic := &inner.Constraints[i]
		if ic.ArgIndex < 0 {
			continue
		}
		c := &info.Constraints[i]
		c.ArgIndex, c.Omit = ic.ArgIndex, ic.Omit
		if t.tmpl.cells != nil && t.isLabelColumn(ic.Column) {
			c.Omit = false
		}
		nargs = max(nargs, ic.ArgIndex+1)
	}
	var parts []string
	fileFrac := 1.0
	unapplied := false
	liked := map[int]bool{} // file columns with a LIKE term
	for _, c := range info.Constraints {
		if c.Column >= 0 && c.Column < t.nfix && c.Op == sqlitevt.OpLIKE {
			liked[c.Column] = true
		}
	}
	for i := range info.Constraints {
		c := &info.Constraints[i]
		if c.Column < 0 || c.Column >= t.nfix || c.Op == sqlitevt.OpLIMIT || c.Op == sqlitevt.OpOFFSET {
			continue
		}
		if liked[c.Column] && isRange(c.Op) && c.Collation == "NOCASE" {
			// The range SQLite derives from a LIKE prefix (its LIKE
			// optimization, under NOCASE as LIKE ignores case) is only
			// there for indexes: it is never tested, and the LIKE term
			// itself chooses the files. (A GLOB's derived range is
			// BINARY and taken like any range.)
			continue
		}
		nocase := c.Collation == "NOCASE" && c.Op != sqlitevt.OpLIKE && c.Op != sqlitevt.OpGLOB
		if t.tmpl.cells != nil && i >= maxInListSlot && c.Op == sqlitevt.OpEQ {
			continue // possibly an IN SQLite cannot hand over whole: SQLite applies it alone (cells_in.go)
		}
		if !fileOps[c.Op] || !c.Usable || !isBinary(c) && !nocase && c.Op != sqlitevt.OpLIKE && c.Op != sqlitevt.OpGLOB {
			unapplied = true
			continue
		}
		c.ArgIndex, c.Omit = nargs, t.tmpl.agg != nil
		nargs++
		if nocase {
			parts = append(parts, fmt.Sprintf("%d:%d:n", c.Column, c.Op))
		} else {
			parts = append(parts, fmt.Sprintf("%d:%d", c.Column, c.Op))
		}
		fileFrac *= t.fileFraction(info, i)
	}
	info.IdxNum = inner.IdxNum
	if unapplied && t.tmpl.agg != nil {
		info.IdxNum |= manyUnapplied
	}
	if t.tmpl.agg != nil && tooManyToOmit(info) {
		return t.tmpl.at.tooManyTerms() // the file terms count too
	}
	info.IdxStr = inner.IdxStr + "|" + strings.Join(parts, ",")
	info.OrderByConsumed = false
	info.IdxFlags = inner.IdxFlags &^ sqlitevt.IndexScanUnique
	n := float64(len(t.list.files))
	info.EstimatedRows = int64(min(max(float64(inner.EstimatedRows)*max(n*fileFrac, 1), 1), 1<<62)) // a priced-out inner plan says 1<<62
	if t.tmpl.agg != nil {
		// Every plan costs between 0.8 and 1 times the inner plan over all
		// files, so that no two plans cost less than one (see aggTable.cost).
		info.EstimatedCost = inner.EstimatedCost * n * (0.8 + 0.2*fileFrac)
	} else {
		info.EstimatedCost = inner.EstimatedCost * max(n*fileFrac, 1)
	}
	if info.IdxNum&manyUnapplied != 0 {
		info.EstimatedCost = 1e300
	}
	info.EstimatedCost = min(info.EstimatedCost, 1e300)
	return nil
}

// isLabelColumn reports whether inner column col of a cells table is a
// label column.
func (t *manyTable) isLabelColumn(col int) bool {
	at := t.tmpl.at
	return col >= len(at.dims) && col < len(at.dims)+len(at.labelAxis)
}

// fileFraction estimates the share of files term i keeps: exactly when
// SQLite knows its right-hand value while planning, else by a rule of
// thumb.
func (t *manyTable) fileFraction(info *sqlitevt.IndexInfo, i int) float64 {
	c := info.Constraints[i]
	if v, ok := info.RHS(i); ok {
		n := 0
		for f := range t.list.files {
			if m, _ := textMatch(t.fileValue(f, c.Column), c.Op, v); m {
				n++
			}
		}
		return float64(n) / float64(len(t.list.files))
	}
	if c.Op == sqlitevt.OpEQ || c.Op == sqlitevt.OpIS {
		return 0.1
	}
	return 0.5
}

// isRange reports a range comparison.
func isRange(op sqlitevt.ConstraintOp) bool {
	return op == sqlitevt.OpGT || op == sqlitevt.OpGE || op == sqlitevt.OpLT || op == sqlitevt.OpLE
}

// fileTerm is one file term of a plan.
type fileTerm struct {
	col    int
	op     sqlitevt.ConstraintOp
	nocase bool // under COLLATE NOCASE: ASCII letters compare folded
}

// parseManyIdx splits a many-file idxStr into the inner idxStr and the
// file terms.
func parseManyIdx(s string) (inner string, terms []fileTerm, err error) {
	inner, files, ok := strings.Cut(s, "|")
	if !ok {
		return "", nil, fmt.Errorf("tet: bad many-file plan %q", s)
	}
	for _, p := range strings.Split(files, ",") {
		if p == "" {
			continue
		}
		a, b, ok := strings.Cut(p, ":")
		b, flag, _ := strings.Cut(b, ":")
		col, err1 := strconv.Atoi(a)
		op, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || flag != "" && flag != "n" {
			return "", nil, fmt.Errorf("tet: bad many-file plan %q", s)
		}
		terms = append(terms, fileTerm{col, sqlitevt.ConstraintOp(op), flag == "n"})
	}
	return inner, terms, nil
}

// innerArgs is how many arguments an inner idxStr takes.
func innerArgs(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(s, ",") + 1
}
