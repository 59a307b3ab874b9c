package vtab

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetsql/tetsql/internal/sqlitevt"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
	"github.com/tetsql/tetsql/tetcore"
)

// aggCursor computes the whole result in Filter, then walks its rows.
type aggCursor struct {
	t      *aggTable
	plan   planner.Plan
	cons   []planner.Constraint
	by     any
	keep   []bool
	kept   []int     // kept axes, in order
	values [][]int64 // per kept axis, the selected global indices
	groups []fold.Stats
	fixed  []int64 // per axis: the one index an equality selects, or -1
	g      int     // current group
	eof    bool
	mem    memBudget // this Filter's buffers, see reserve
	held   int64     // what mem holds against the session's limit until the next Filter or Close
	// the chunks holding selected elements, and how many (agg_chunks.go)
	spans   [][]chunkSpan
	nchunks int64

	rowids  rowidBlocks // rowid blocks by row identity (agg_rowid.go)
	rowBase int64       // this Filter's block

	started time.Time
	stats   ScanStats
}

// Filter selects, folds every intersecting chunk (in parallel) and
// positions on the first output row.
func (c *aggCursor) Filter(_ int, idxStr string, vals []sqlitevt.Value) error {
	panicPoint("xFilter")
	if c.started.IsZero() {
		c.started = time.Now()
	}
	c.stats.Filters++
	c.eof, c.g, c.groups, c.by = true, 0, nil, nil
	specs, err := parseAggSpecs(idxStr)
	if err != nil || len(specs) != len(vals) {
		return fmt.Errorf("tet: %s: bad plan %q", c.t.qualified, idxStr)
	}
	c.cons = c.cons[:0]
	var ins []inTerm
	for i, sp := range specs {
		v := vals[i]
		if sp.kind == 'b' {
			c.by = v
			continue
		}
		if l, ok := v.(sqlitevt.InList); ok && sp.op == planner.OpEQ {
			idx, err := c.inIndices(sp.target, l)
			if err != nil {
				return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
			}
			ins = append(ins, inTerm{sp.target, idx})
			continue
		}
		if sp.target.Kind == planner.KindDim {
			var all bool
			if v, all = numericAffinity(v, sp.op); all {
				continue
			}
		}
		c.cons = append(c.cons, planner.Constraint{Target: sp.target, Op: sp.op, Value: v})
	}
	c.cons = append(c.cons, hull(ins)...)
	if c.keep, err = c.t.parseBy(c.by); err != nil {
		return err
	}
	if err := c.plan.Reset(c.t.geom, c.cons); err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
	}
	sel, err := selectAxes(&c.plan, c.cons, c.t.ds.Labels)
	if err != nil {
		err = fmt.Errorf("tet: %s: %w", c.t.qualified, err)
		c.t.session.setErr(err)
		return err
	}
	restrict(sel, ins)
	sizes := make([]int64, len(sel))
	for d := range sel {
		sizes[d] = sel[d].n
	}
	stride, ngroups := fold.Strides(sizes, c.keep)
	// Size every buffer from the plan before allocating any (memlimit.go).
	if err := c.reserve(ngroups, sel); err != nil {
		return err
	}
	c.kept, c.values = c.kept[:0], c.values[:0]
	for d := range sel {
		if c.keep[d] {
			c.kept = append(c.kept, d)
			vals := make([]int64, 0, sel[d].n)
			for _, r := range sel[d].runs {
				for g := r.lo; g < r.hi; g++ {
					vals = append(vals, g)
				}
			}
			c.values = append(c.values, vals)
		}
	}
	// An axis pinned to one index by an equality reports that index even
	// when not grouped: an IN list runs one Filter per value, and each
	// result row then says which value it is for.
	c.fixed = c.fixed[:0]
	for d := range sel {
		c.fixed = append(c.fixed, -1)
		for _, cn := range c.cons {
			if cn.Op == planner.OpEQ && cn.Target.Axis == d && cn.Target.Kind != planner.KindRowID &&
				sel[d].n == 1 && !c.keep[d] {
				c.fixed[d] = sel[d].runs[0].lo
			}
		}
		for _, it := range ins { // an IN list that selects one index pins it too
			if it.target.Axis == d && sel[d].n == 1 && !c.keep[d] {
				c.fixed[d] = sel[d].runs[0].lo
			}
		}
	}
	size, err := gridSize(c.t.ds.Shape, c.keep)
	if err == nil {
		c.rowBase, err = c.rowids.block(c.keep, sel, max(size, 1))
	}
	if err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
	}
	groups, err := c.foldAll(sel, stride, ngroups)
	if err != nil {
		return err
	}
	// Open checked the file; a file rewritten in place while the chunks
	// were folded would have given groups of both versions.
	if err := c.t.h.File.CheckUnchanged(); err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
	}
	c.groups = groups
	c.seek()
	return nil
}

// seek moves to the first group at or after c.g that has elements (a
// query without grouping always has its one row).
func (c *aggCursor) seek() {
	for ; c.g < len(c.groups); c.g++ {
		s := &c.groups[c.g]
		if len(c.kept) == 0 || s.Count()+s.NullCount() > 0 {
			c.eof = false
			c.stats.Rows++
			return
		}
	}
	c.eof = true
}

// work is one chunk to fold: its id and its place in the dataset. The
// fold selects inside it by the exact axis selections (which lie within
// the plan's box), so the plan's sub-box need not be kept.
type work struct {
	id            int64
	start, extent [planner.MaxRank]int64
}

// workOf describes chunk id of ds.
func workOf(ds *tetcore.Dataset, id int64) work {
	w := work{id: id}
	var coords [planner.MaxRank]int64
	r := ds.Rank()
	ds.ChunkCoords(id, coords[:r])
	ds.ChunkStart(coords[:r], w.start[:r], w.extent[:r])
	return w
}

func (c *aggCursor) foldAll(sel []axisSel, stride []int64, ngroups int64) ([]fold.Stats, error) {
	items := chunkIDs(c.t.ds, c.spans, c.nchunks)
	var ev *evictor
	if len(items) >= evictFrom {
		ev = newEvictor(c.t.h.File)
	}
	var out []fold.Stats
	var err error
	if ngroups == 1 {
		out, err = c.foldBatches(items, sel, stride, ev)
	} else {
		out, err = c.foldStriped(items, sel, stride, ngroups, ev)
	}
	if err != nil {
		return nil, err
	}
	for g := range out {
		c.stats.Elements += out[g].Count() + out[g].NullCount()
	}
	return out, nil
}

// foldBatch is how many chunks a worker of an ungrouped fold claims at a
// time.
const foldBatch = 8

// foldBatches folds the items into one group. Workers claim batches of
// foldBatch chunks as they go (a busy core holds up no one), and each
// batch's result has its own slot, merged in batch order at the end: the
// result does not depend on which worker folded what.
func (c *aggCursor) foldBatches(items []int64, sel []axisSel, stride []int64, ev *evictor) ([]fold.Stats, error) {
	nb := (len(items) + foldBatch - 1) / foldBatch
	part := make([]fold.Stats, max(nb, 1))
	workers := max(min(runtime.GOMAXPROCS(0), nb), 1)
	var next atomic.Int64
	err := c.runWorkers(workers, func(f *folder) error {
		for {
			b := int(next.Add(1) - 1)
			if b >= nb {
				return nil
			}
			f.out = part[b : b+1]
			for i := b * foldBatch; i < min((b+1)*foldBatch, len(items)); i++ {
				if err := f.chunk(items[i]); err != nil {
					return err
				}
			}
		}
	}, sel, stride, ev)
	if err != nil {
		return nil, err
	}
	for _, p := range part[1:] {
		part[0] = fold.Merge(part[0], p)
	}
	return part[:1], nil
}

// foldStriped folds the items into ngroups groups: worker w takes items
// w, w+W, … into its own groups, merged in worker order at the end.
func (c *aggCursor) foldStriped(items []int64, sel []axisSel, stride []int64, ngroups int64, ev *evictor) ([]fold.Stats, error) {
	// Each worker beyond the first needs its own set of groups, which
	// reserve did not count: run only as many as the memory limit allows.
	workers := min(runtime.GOMAXPROCS(0), len(items), 1+int(min(c.mem.left()/max(groupBytes*ngroups, 1), 1<<20)))
	workers = max(workers, 1)
	parts := make([][]fold.Stats, workers)
	var claimed atomic.Int64
	err := c.runWorkers(workers, func(f *folder) error {
		w := int(claimed.Add(1) - 1)
		parts[w] = make([]fold.Stats, ngroups)
		f.out = parts[w]
		for i := w; i < len(items); i += workers {
			if err := f.chunk(items[i]); err != nil {
				return err
			}
		}
		return nil
	}, sel, stride, ev)
	if err != nil {
		return nil, err
	}
	out := parts[0]
	for _, p := range parts[1:] {
		for g := range out {
			out[g] = fold.Merge(out[g], p[g])
		}
	}
	return out, nil
}

// runWorkers runs body on workers goroutines, each with its own folder,
// adds their scan counters to the cursor's and returns the first error.
// A panic in a worker would end the process whatever the SQLite thread
// recovers, so each worker recovers its own and returns it as an error;
// once one fails, the others stop at their next chunk.
func (c *aggCursor) runWorkers(workers int, body func(*folder) error, sel []axisSel, stride []int64, ev *evictor) error {
	errs := make([]error, workers)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var stop atomic.Bool
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A raw chunk is folded straight from the mapping: if the
			// file shrinks meanwhile, the read faults. Make that a panic
			// this goroutine recovers, not the end of the process.
			debug.SetPanicOnFault(true)
			f := folder{c: c, sel: sel, stride: stride, ev: ev, stop: &stop}
			defer func() {
				if p := recover(); p != nil {
					errs[w] = faultError(c.t.qualified, c.t.h.Path(), p)
					if errs[w] == nil {
						errs[w] = internalError(c.t.qualified, "fold worker", p)
					}
				}
				if errs[w] != nil {
					stop.Store(true)
				}
				mu.Lock()
				c.stats.ChunksDecoded += f.stats.ChunksDecoded
				c.stats.BytesRead += f.stats.BytesRead
				c.stats.BytesDecoded += f.stats.BytesDecoded
				mu.Unlock()
			}()
			errs[w] = body(&f)
		}()
	}
	wg.Wait()
	var first error
	for _, err := range errs {
		if err != nil && (first == nil || errors.Is(first, errStopped)) {
			first = err
		}
	}
	return first
}

// errStopped is what a worker returns when it stops because another one
// failed; the other's error is reported instead.
var errStopped = errors.New("tet: fold stopped")
