package vtab

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"time"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// manyCells is the cursor of a many-file cells table: it walks the files
// the file terms keep, in list order, one inner cells cursor at a time
// (so one file is open for it at a time), and prefixes each row with the
// file's path and hive values.
type manyCells struct {
	t     *manyTable
	files []int // the files this Filter reads, in list order
	next  int   // position in files of the next file to open
	cur   *innerTable
	cc    *cellsCursor
	fi    int // list index of cur's file
	ps    manyPlan
	done  bool
	seen  map[int]bool // files opened by any Filter of this cursor
	stats ScanStats
	start time.Time
	shift uint // rowid = file index << shift | the file's own rowid
	// fileRows counts the rows of the current file returned so far.
	fileRows int64
	// idxNum and idxStr are the current Filter's plan (an exporter
	// checks them).
	idxNum int
	idxStr string
}

// manyPlan is a many-file Filter's arguments taken apart.
type manyPlan struct {
	innerNum  int
	innerStr  string
	innerVals []sqlitevt.Value
	terms     []fileTerm
	fileVals  []sqlitevt.Value
}

// split takes a many-file Filter's arguments apart.
func (p *manyPlan) split(idxNum int, idxStr string, vals []sqlitevt.Value) error {
	inner, terms, err := parseManyIdx(idxStr)
	if err != nil {
		return err
	}
	n := innerArgs(inner)
	if n+len(terms) != len(vals) {
		return fmt.Errorf("tet: many-file plan %q expects %d arguments, got %d", idxStr, n+len(terms), len(vals))
	}
	p.innerNum, p.innerStr, p.terms = idxNum, inner, terms
	p.innerVals, p.fileVals = vals[:n], vals[n:]
	return nil
}

// pick lists the files every file term keeps. With exact set (an
// aggregate table, which consumes the terms) a term that cannot be
// decided exactly for some file fails the statement.
func (t *manyTable) pick(p *manyPlan, exact bool) ([]int, error) {
	var out []int
	for f := range t.list.files {
		keep := true
		for k, term := range p.terms {
			v, arg := t.fileValue(f, term.col), p.fileVals[k]
			if term.nocase {
				v, arg = foldCase(v, arg)
			}
			var m, sure bool
			if l, ok := arg.(sqlitevt.InList); ok {
				m, sure = matchAny(v, term.op, l)
			} else {
				m, sure = textMatch(v, term.op, arg)
			}
			if exact && !sure {
				return nil, fmt.Errorf("tet: %s: cannot decide a condition on column %s for %s exactly: compare it with TEXT values",
					t.qualified, t.fileColumnName(term.col), t.list.files[f].path)
			}
			if !m {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out, nil
}

// foldCase is a file value and a term's argument as COLLATE NOCASE
// compares them: ASCII letters folded, TEXT arguments only (a number
// under TEXT affinity holds no letter; an IN list is folded element by
// element).
func foldCase(v *string, arg sqlitevt.Value) (*string, sqlitevt.Value) {
	if v != nil {
		l := asciiLower(*v)
		v = &l
	}
	switch a := arg.(type) {
	case string:
		arg = asciiLower(a)
	case sqlitevt.InList:
		out := make(sqlitevt.InList, len(a))
		for i, x := range a {
			_, out[i] = foldCase(nil, x)
		}
		arg = out
	}
	return v, arg
}

// fileColumnName is the name of file column col.
func (t *manyTable) fileColumnName(col int) string {
	if col == 0 {
		return "file"
	}
	return t.list.keys[col-1]
}

// Open implements sqlitevt.Table.
func (t *manyTable) Open() (sqlitevt.Cursor, error) {
	panicPoint("xOpen")
	shift := uint(63 - bits.Len(uint(len(t.list.files))))
	if t.tmpl.agg != nil {
		return &manyAgg{t: t, shift: shift}, nil
	}
	return &manyCells{t: t, seen: map[int]bool{}, shift: shift}, nil
}

// Filter implements sqlitevt.Cursor.
func (c *manyCells) Filter(idxNum int, idxStr string, vals []sqlitevt.Value) error {
	panicPoint("xFilter")
	if c.start.IsZero() {
		c.start = time.Now()
	}
	c.stats.Filters++
	c.closeFile()
	if err := c.ps.split(idxNum, idxStr, vals); err != nil {
		return err
	}
	files, err := c.t.pick(&c.ps, false)
	if err != nil {
		return err
	}
	c.files, c.next, c.done = files, 0, false
	c.idxNum, c.idxStr = idxNum, idxStr
	c.t.args.session.engine().LiveFiles(int64(len(files)), 0)
	if err := c.advance(); err != nil {
		return err
	}
	return c.export()
}

// advance moves to the first row of the next file that has one.
func (c *manyCells) advance() error {
	for {
		if c.cc != nil && !c.cc.Eof() {
			return nil
		}
		c.closeFile()
		if c.next >= len(c.files) {
			c.done = true
			return nil
		}
		fi := c.files[c.next]
		c.next++
		if err := c.openFile(fi); err != nil {
			return err
		}
	}
}

// openFile opens file fi and starts its inner scan; a file that does not
// hold the dataset is passed over, and so is, with on_error=skip, one
// that cannot be read or does not fit.
func (c *manyCells) openFile(fi int) error {
	t := c.t
	sess := t.args.session
	if err := sess.Interrupted(); err != nil {
		return err
	}
	if !c.seen[fi] {
		c.seen[fi] = true
		c.stats.FilesOpened++
	}
	sess.engine().LiveFiles(0, 1)
	it, err := t.inner(fi)
	if err == nil {
		var cur sqlitevt.Cursor
		if cur, err = it.cells.Open(); err == nil {
			c.cur, c.cc, c.fi, c.fileRows = it, cur.(*cellsCursor), fi, 1
			err = c.cc.Filter(c.ps.innerNum, c.ps.innerStr, c.ps.innerVals)
			if err != nil {
				c.closeFile()
			}
		} else {
			it.close()
		}
	}
	return c.fileError(fi, err)
}

// fileError is what an error reading file fi becomes: nil for a file
// without the dataset, a warning with on_error=skip, else the error
// naming the file.
func (c *manyCells) fileError(fi int, err error) error {
	return c.t.fileError(fi, err, &c.stats, "")
}

// fileError is manyCells.fileError for any cursor; note ends the warning.
func (t *manyTable) fileError(fi int, err error, st *ScanStats, note string) error {
	if err == nil || errors.Is(err, errNoDataset) {
		return nil
	}
	path := t.list.files[fi].path
	if t.args.skip && !isInterrupt(err) {
		// The inner table may have kept the error for the driver; the
		// statement goes on without the file, so it must not surface.
		t.args.session.engine().TakeError()
		st.FilesSkipped++
		t.args.session.Warning(skipWarning(path, err) + note)
		return nil
	}
	if strings.Contains(err.Error(), path) {
		err = fmt.Errorf("tet: %s: %w", t.qualified, err)
	} else {
		err = fmt.Errorf("tet: %s: %s: %w", t.qualified, path, err)
	}
	t.args.session.setErr(err)
	return err
}

// isInterrupt reports an error that is not the file's: the statement
// ended by its caller, or over the memory limit (never skipped).
func isInterrupt(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, scan.ErrMemLimit) || errors.Is(err, scan.ErrInternal)
}

// closeFile ends the current file's scan, adding its statistics, and
// gives the file back to the table's pool (closes it after an error).
func (c *manyCells) closeFile() {
	failed := false
	if c.cc != nil {
		failed = c.cc.s.Err() != nil
		c.cc.Close()
		st := c.cc.s.Stats
		addStats(&c.stats, st)
		c.cc = nil
	}
	if c.cur != nil {
		if failed {
			c.cur.close()
		} else {
			c.t.pool.put(c.fi, c.cur)
		}
		c.cur = nil
	}
}

// Next implements sqlitevt.Cursor. A read error of the current file
// (kept by its cursor for Column) ends the scan with the file named,
// or, with on_error=skip, passes the file over.
func (c *manyCells) Next() error {
	if c.done {
		return nil
	}
	eof, err := c.cc.Step()
	if err == nil {
		err = c.cc.s.Err()
	}
	if err != nil {
		note := ""
		if n := c.fileRows; n > 0 {
			// Rows already returned cannot be taken back: say so.
			note = fmt.Sprintf(" (the rest of the file, after %d rows already returned)", n)
		}
		if err := c.t.fileError(c.fi, err, &c.stats, note); err != nil {
			return err
		}
		c.closeFile()
		return c.advance()
	}
	if eof {
		return c.advance()
	}
	c.fileRows++
	return nil
}

// Step is Next then Eof (sqlitevt.Stepper).
func (c *manyCells) Step() (bool, error) {
	err := c.Next()
	return c.done, err
}

// Eof implements sqlitevt.Cursor.
func (c *manyCells) Eof() bool { return c.done }

// Column implements sqlitevt.Cursor.
func (c *manyCells) Column(r *sqlitevt.Result, col int) error {
	if col < c.t.nfix {
		if v := c.t.fileValue(c.fi, col); v != nil {
			r.Text(*v)
		} else {
			r.Null()
		}
		return nil
	}
	if err := c.cc.Column(r, col-c.t.nfix); err != nil {
		return fmt.Errorf("tet: %s: %s: %w", c.t.qualified, c.cur.path, err)
	}
	return nil
}

// Rowid implements sqlitevt.Cursor: the file's list index in the high
// bits, the element's row-major index in the file below.
func (c *manyCells) Rowid() (int64, error) {
	r, err := c.cc.Rowid()
	if err != nil {
		return 0, err
	}
	if r>>c.shift != 0 {
		return 0, fmt.Errorf("tet: %s: %s has too many elements for rowids over %d files", c.t.qualified, c.cur.path, len(c.t.list.files))
	}
	return int64(c.fi)<<c.shift | r, nil
}

// Close implements sqlitevt.Cursor: it records the files' statistics as
// one scan.
func (c *manyCells) Close() error {
	panicPoint("xClose")
	c.closeFile()
	if !c.start.IsZero() {
		c.t.record(&c.stats, c.start)
	}
	return nil
}

// record stores a many-file scan's statistics on the session and the
// connection.
func (t *manyTable) record(st *ScanStats, start time.Time) {
	st.Table, st.Dataset = t.qualified, t.args.dataset
	st.FilesTotal = int64(len(t.list.files))
	st.Elapsed = time.Since(start)
	t.args.session.engine().Record(*st)
	t.args.conn.record(*st)
}

// addStats sums another file's counters into s.
func addStats(s *ScanStats, o ScanStats) {
	s.ChunksDecoded += o.ChunksDecoded
	s.ChunksTotal += o.ChunksTotal
	s.ChunksSkipped += o.ChunksSkipped
	s.CacheHits += o.CacheHits
	s.BytesRead += o.BytesRead
	s.BytesDecoded += o.BytesDecoded
	s.Rows += o.Rows
	s.Elements += o.Elements
}
