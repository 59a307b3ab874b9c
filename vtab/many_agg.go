package vtab

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// manyAgg is the cursor of a many-file aggregate table. Filter runs the
// inner aggregate of every file the file terms keep, and merges rows
// with the same group: the same values of the file columns named in by
// (file or a hive key) and the same group index on each grouped axis.
// The merges are exact where the single-file table is: counts, integer
// sums, minimum and maximum exactly; float sums compensated; var and std
// by the stable parallel merge (fold.Merge); median and quantile over
// the gathered values of every file; argmin and argmax as the first
// element (in file order, then the file's row-major order) equal to the
// merged extreme, as a rowid of the many-file table.
//
// A file column not named in by shows the value all the row's files
// share (NULL when they differ); so does a label column of a grouped or
// pinned axis (files may label the same index differently).
type manyAgg struct {
	t      *manyTable
	shift  uint
	ps     manyPlan
	fileBy []int   // file columns (0: file, then hive keys) named in by
	kept   []int   // grouped axes (the inner cursors')
	coarse []int64 // block size per axis of a coarsened axis (nil: none)
	rows   []*mgroup
	index  map[string]*mgroup
	g      int
	eof    bool
	by     any
	qArg   any
	seen   map[int]bool
	stats  ScanStats
	start  time.Time
	held   int64
	mem    scan.Budget
	rowids map[string]int64
	next   int64 // next free rowid block
	base   int64 // this Filter's rowid block
}

// mgroup is one output row being merged.
type mgroup struct {
	order      int      // list index of the first file in it, for row order
	fileKey    []string // values of the by file columns ("\x00NULL" for none)
	keys       []int64  // group index per grouped axis
	stats      fold.Stats
	files      []*string // per file column: the value every file shares
	filesSet   []bool
	filesMixed []bool
	labels     []any // per label column: the label every file shares
	labelSet   []bool
	mixed      []bool
	fixed      []int64 // per axis: the pinned index, -1 none
	argMin     int64
	argMax     int64
	minOf      fold.Stats // the stats whose extreme argMin / argMax point at
	maxOf      fold.Stats
	f32        []float32
	f64        []float64
}

const noArg = math.MaxInt64

// Filter implements sqlitevt.Cursor.
func (c *manyAgg) Filter(idxNum int, idxStr string, vals []sqlitevt.Value) error {
	panicPoint("xFilter")
	if c.start.IsZero() {
		c.start, c.seen, c.rowids = time.Now(), map[int]bool{}, map[string]int64{}
	}
	c.stats.Filters++
	sess := c.t.args.session
	sess.engine().Release(&c.held)
	c.rows, c.index, c.g, c.eof = nil, map[string]*mgroup{}, 0, true
	if idxNum&manyUnapplied != 0 {
		err := fmt.Errorf("tet: %s: a condition on file or a hive column cannot be applied by this table here "+
			"(a COLLATE other than BINARY, an operator it does not take, or a join that makes it the outer table): "+
			"SQLite would test it on the merged rows, where those columns may be NULL; compare the column itself with a value, "+
			"or filter the cells table", c.t.qualified)
		c.t.args.session.setErr(err)
		return err
	}
	if err := c.ps.split(idxNum, idxStr, vals); err != nil {
		return err
	}
	if err := c.takeBy(); err != nil {
		return err
	}
	files, err := c.t.pick(&c.ps, true)
	if err != nil {
		sess.setErr(err)
		return err
	}
	c.mem = sess.engine().Budget(c.t.qualified)
	sess.engine().LiveFiles(int64(len(files)), 0)
	if err := c.foldAll(files); err != nil {
		return err
	}
	c.held = c.mem.Hold()
	if len(c.rows) == 0 && len(c.fileBy) == 0 && !c.grouped() {
		c.rows = append(c.rows, c.newGroup(nil, nil, -1))
	}
	c.sortRows()
	c.base = c.rowBase(idxStr, vals)
	c.eof = len(c.rows) == 0
	c.stats.Rows += int64(len(c.rows))
	return nil
}

// grouped reports whether the inner by names an axis.
func (c *manyAgg) grouped() bool {
	s, _ := c.ps.innerBy()
	return strings.TrimSpace(s) != ""
}

// takeBy splits the by argument: items naming file or a hive key group
// by file columns here; the rest is handed to every file's aggregate.
func (c *manyAgg) takeBy() error {
	c.fileBy, c.by, c.qArg = c.fileBy[:0], nil, nil
	specs, err := parseAggSpecs(c.ps.innerStr)
	if err != nil || len(specs) != len(c.ps.innerVals) {
		return fmt.Errorf("tet: %s: bad plan %q", c.t.qualified, c.ps.innerStr)
	}
	for i, sp := range specs {
		switch sp.kind {
		case 'q':
			c.qArg = c.ps.innerVals[i]
		case 'b':
			c.by = c.ps.innerVals[i]
			s, _ := c.by.(string)
			if b, ok := c.by.([]byte); ok {
				s = string(b)
			}
			var rest []string
			for _, item := range strings.Split(s, ",") {
				col := c.t.fileColumn(strings.TrimSpace(item))
				if col < 0 {
					rest = append(rest, item)
					continue
				}
				dup := false
				for _, f := range c.fileBy {
					dup = dup || f == col
				}
				if !dup {
					c.fileBy = append(c.fileBy, col)
				}
			}
			vals := append([]sqlitevt.Value(nil), c.ps.innerVals...)
			vals[i] = strings.Join(rest, ",")
			c.ps.innerVals = vals
		}
	}
	return nil
}

// innerBy is the by argument handed to the files (after takeBy).
func (p *manyPlan) innerBy() (string, bool) {
	specs, err := parseAggSpecs(p.innerStr)
	if err != nil {
		return "", false
	}
	for i, sp := range specs {
		if sp.kind == 'b' && i < len(p.innerVals) {
			s, _ := p.innerVals[i].(string)
			return s, true
		}
	}
	return "", false
}

// fileColumn is the file column a by item names (ASCII case ignored), -1
// for none. A dim of the same name cannot exist: the names are unique.
func (t *manyTable) fileColumn(name string) int {
	if strings.EqualFold(name, "file") {
		return 0
	}
	for i, k := range t.list.keys {
		if strings.EqualFold(name, k) {
			return i + 1
		}
	}
	return -1
}

// partRow is one output row of one file's aggregate, taken out of its
// cursor so that the file can be closed before the rows are merged.
type partRow struct {
	keys           []int64 // group index per grouped axis
	stats          fold.Stats
	fixed          []int64 // per axis, as aggCursor.fixed
	labels         []any   // per label column: the row's label
	labelOK        []bool  // false: the row has no one label there
	argMin, argMax int64   // the file's rowids, -1 for none
	empty          bool    // a row one file's grouped aggregate would not show
	f32            []float32
	f64            []float64
}

// fileResult is what folding one file gave.
type fileResult struct {
	k      int // position in the Filter's list of files
	fi     int
	rows   []partRow
	kept   []int
	coarse []int64
	stats  ScanStats
	err    error // the file's error, not yet passed through fileError
	opened bool
}

// foldFile runs file fi's aggregate and takes its rows out. It runs on a
// worker goroutine: a panic becomes the result's error.
func (c *manyAgg) foldFile(fi int) (res fileResult) {
	t := c.t
	res.fi = fi
	defer func() {
		if p := recover(); p != nil {
			res.err = internalError(t.qualified, "folding "+t.list.files[fi].path, p)
		}
	}()
	if res.err = t.args.session.Interrupted(); res.err != nil {
		return res
	}
	res.opened = true
	t.args.session.engine().LiveFiles(0, 1)
	it, err := t.inner(fi)
	if err != nil {
		res.err = err
		return res
	}
	defer func() {
		if res.err != nil {
			it.close()
		} else {
			t.pool.put(fi, it)
		}
	}()
	cur, err := it.agg.Open()
	if err != nil {
		res.err = err
		return res
	}
	ic := cur.(*aggCursor)
	defer func() {
		ic.Close()
		res.stats = ic.stats
		res.stats.Rows = 0 // the merged rows are counted instead
	}()
	if res.err = ic.Filter(c.ps.innerNum, c.ps.innerStr, c.ps.innerVals); res.err != nil {
		return res
	}
	res.kept, res.coarse = ic.kept, ic.coarse
	for ; !ic.Eof(); ic.Next() {
		res.rows = append(res.rows, takeRow(it.at, ic))
	}
	return res
}

// takeRow copies the current row of ic.
func takeRow(at *arrayTable, ic *aggCursor) partRow {
	s := ic.groups[ic.g]
	r := partRow{stats: s, fixed: slices.Clone(ic.fixed), argMin: -1, argMax: -1,
		empty: s.Count()+s.NullCount() == 0 || len(ic.vterms) > 0 && s.Count() == 0}
	for k := range ic.kept {
		r.keys = append(r.keys, ic.groupIndex(k))
	}
	for _, a := range at.labelAxis {
		idx := int64(-1)
		if k := ic.keptPos(a); k >= 0 && blockOf(ic.coarse, a) <= 1 {
			idx = ic.groupIndex(k)
		} else if k < 0 && ic.fixed[a] >= 0 {
			idx = ic.fixed[a]
		}
		if idx < 0 {
			r.labels, r.labelOK = append(r.labels, nil), append(r.labelOK, false)
		} else {
			r.labels, r.labelOK = append(r.labels, labelValue(at, a, idx)), append(r.labelOK, true)
		}
	}
	if p := ic.picker; p != nil {
		if v, ok := p.ArgMin(ic.g); ok {
			r.argMin = v
		}
		if v, ok := p.ArgMax(ic.g); ok {
			r.argMax = v
		}
		r.f32, r.f64 = p.Values(ic.g)
	}
	return r
}

// foldAll folds files on up to GOMAXPROCS workers (so at most that many
// files are open for it at once) and merges their rows in file order, so
// that the result does not depend on which worker finished first.
func (c *manyAgg) foldAll(files []int) error {
	workers := min(runtime.GOMAXPROCS(0), len(files))
	if workers <= 1 {
		for _, fi := range files {
			if err := c.take(c.foldFile(fi)); err != nil {
				return err
			}
		}
		return nil
	}
	jobs, out, done := make(chan int), make(chan fileResult), make(chan struct{})
	stop := sync.OnceFunc(func() { close(done) })
	defer stop() // also when a merge panics: no worker is left blocked
	go func() {
		defer close(jobs)
		for k := range files {
			select {
			case jobs <- k:
			case <-done:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				r := c.foldFile(files[k])
				r.k = k
				select {
				case out <- r:
				case <-done:
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	pending := map[int]fileResult{}
	next := 0
	var err error
	for r := range out {
		if err != nil {
			continue // draining
		}
		pending[r.k] = r
		for p, ok := pending[next]; ok; p, ok = pending[next] {
			delete(pending, next)
			next++
			if err = c.take(p); err != nil {
				stop()
				break
			}
		}
	}
	return err
}

// take merges one file's result.
func (c *manyAgg) take(r fileResult) error {
	if r.opened && !c.seen[r.fi] {
		c.seen[r.fi] = true
		c.stats.FilesOpened++
	}
	addStats(&c.stats, r.stats)
	if r.err != nil {
		return c.t.fileError(r.fi, r.err, &c.stats, "")
	}
	if r.kept != nil {
		c.kept, c.coarse = r.kept, r.coarse
	}
	for i := range r.rows {
		if err := c.merge(r.fi, &r.rows[i]); err != nil {
			return err
		}
	}
	return nil
}
