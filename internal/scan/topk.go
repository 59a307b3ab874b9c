package scan

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
)

// TopK answers "ORDER BY value [DESC], rowid LIMIT n" over the selection
// of a plan without sorting it: a heap keeps the best n elements seen. Chunks without statistics are read first, in plan order,
// and their statistics are computed with the fold kernels and kept (so
// that the next query can skip them); then the chunks with statistics are
// visited best bound first (largest max for DESC, smallest min for ASC)
// and skipped once they cannot hold an element that would enter the
// heap. The result is exact: ties are broken by ascending rowid, NaN
// reads as NULL (first ascending, last descending, as SQLite sorts).
//
// Rows come in pages: Run computes the best rows of the selection, More
// the next best after the last row of the previous page, so that a large
// or unknown LIMIT, or rows that SQLite filters further, are served in
// order with memory bounded by the page.
// A TopK is reused across Filter calls; it is not safe for concurrent use.
type TopK struct {
	dt   array.DType
	flip uint64 // 0, or all ones for DESC (see topk_key.go)
	zero uint64 // the key of a float zero, xored with flip
	// noNull leaves NaN (NULL) elements out ("WHERE value IS NOT NULL");
	// only float dtypes have them.
	noNull bool
	null   uint64     // the key of NULL, xored with flip
	heap   []topEntry // worst entry on top while collecting; then the result
	n      int        // heap capacity: the page size, at most the selection
	res    []topEntry // the page, best first

	// Paging: the source, plan and counters of the pages, the last row of
	// the previous page (rows up to it are excluded), and whether the
	// selection is exhausted.
	r      *Reader
	sess   *Session
	plan   *planner.Plan
	st     *ScanStats
	after  topEntry
	resume bool
	done   bool

	ev     cellsEvictor // hands back the pages of a large plan's chunks
	chunks int64        // the plan's chunks, for ev
	keys   []uint64     // one run's keys, reused
	buf    []byte       // decode buffer, reused
	order  []chunkBound
	first  []topBox  // a batch of chunks without statistics, in plan order
	slots  []topSlot // their parallel reads (topk_parallel.go)
	pre    []int     // the positions in order whose chunks slots hold
	it     planner.Iter
	box    topBox
	gstr   [planner.MaxRank]int64 // rowid strides
	rank   int
	rowsel bool // the plan filters rowids to [rlo, rhi)
	rlo    int64
	rhi    int64
}

// topEntry is one heap element: its (flipped) key and rowid.
type topEntry struct {
	k   uint64
	row int64
	neg bool // a float -0 (its key is +0's)
}

// topBox is one chunk to read: its place and its selected sub-box.
type topBox struct {
	id                    int64
	start, extent, lo, hi [planner.MaxRank]int64
}

// TopKEntryBytes is what one kept element costs (for a memory budget).
const TopKEntryBytes = 24

// TopKChunkBytes is what one chunk with statistics costs while a top-k
// orders the chunks (for a memory budget).
const TopKChunkBytes = 40

// Len is the number of result rows.
func (t *TopK) Len() int { return len(t.res) }

// Row is the rowid of result row i.
func (t *TopK) Row(i int) int64 { return t.res[i].row }

// Value is the SQL value of result row i: NULL (null true), INTEGER or
// REAL, as the cells table emits it.
func (t *TopK) Value(i int) (Num, bool) {
	if t.res[i].neg {
		return Num{F: math.Copysign(0, -1), Real: true}, false
	}
	return keyValue(t.dt, t.res[i].k^t.flip)
}

// Run computes the first page, the best page rows of plan (already
// reset; it must stay unchanged while pages are asked for), read through
// r, leaving out NULL (NaN) elements when noNull. page is capped at the plan's selected rows; the caller has budgeted
// that many entries (TopKEntryBytes each) and the chunk list
// (TopKChunkBytes per planned chunk that has statistics). Chunks read and
// skipped are counted in st.
func (t *TopK) Run(r *Reader, sess *Session, plan *planner.Plan, page int64, desc, noNull bool, st *ScanStats) error {
	in := r.a.Info()
	t.dt, t.flip, t.rank = in.DType, 0, in.Rank()
	if desc {
		t.flip = ^uint64(0)
	}
	t.zero, t.null, t.noNull = floatKey(0)^t.flip, t.flip, noNull && t.dt.IsFloat()
	t.r, t.sess, t.plan, t.st = r, sess, plan, st
	t.resume, t.done = false, false
	return t.page(page)
}

// More replaces the page by the next page rows after it; false when the
// selection holds no more.
func (t *TopK) More(page int64) (bool, error) {
	if t.done || len(t.res) == 0 {
		t.res, t.done = nil, true
		return false, nil
	}
	t.after, t.resume = t.res[len(t.res)-1], true
	if err := t.page(page); err != nil {
		return false, err
	}
	return len(t.res) > 0, nil
}

// page computes one page of at most n rows.
func (t *TopK) page(n int64) error {
	r, sess, plan, st := t.r, t.sess, t.plan, t.st
	in := r.a.Info()
	t.heap, t.res, t.order = t.heap[:0], nil, t.order[:0]
	total := min(n, plan.SelectedRows())
	if total <= 0 || plan.Empty() {
		t.done = true
		return nil
	}
	t.n = int(total)
	s := int64(1)
	for a := t.rank - 1; a >= 0; a-- {
		t.gstr[a] = s
		s *= in.Shape[a]
	}
	t.rlo, t.rhi, t.rowsel = plan.RowIDFilter()
	t.ev, t.chunks = cellsEvictor{src: r.a.src}, plan.ChunkCount()
	sess.LivePlan(t.chunks)
	t.it.Reset(plan)
	t.first, t.pre = t.first[:0], t.pre[:0]
	batch := 0 // chunks without statistics read at once, set by the first
	for t.it.Next() {
		ch := t.it.Chunk()
		t.setBox(ch)
		if stat, ok := r.a.stats.Get(ch.ID); ok {
			t.order = append(t.order, t.bound(&t.box, stat))
			continue
		}
		if batch == 0 {
			batch = t.parallelism(r, sess, ch.ID, math.MaxInt)
		}
		if t.first = append(t.first, t.box); len(t.first) == batch {
			if err := t.firstPass(r, sess, st); err != nil {
				return err
			}
		}
	}
	if err := t.firstPass(r, sess, st); err != nil {
		return err
	}
	slices.SortFunc(t.order, func(a, b chunkBound) int {
		return cmp.Or(cmp.Compare(a.best, b.best), cmp.Compare(a.minRow, b.minRow))
	})
	for i, c := range t.order {
		if len(t.heap) == t.n && c.best > t.heap[0].k {
			st.ChunksSkipped += int64(len(t.order) - i) // sorted: none after can do better
			break
		}
		if t.excluded(&c) {
			st.ChunksSkipped++
			continue
		}
		if err := sess.Interrupted(); err != nil {
			return err
		}
		t.boxOf(in, plan, c.id)
		if err := t.readBounded(r, sess, plan, st, i); err != nil {
			return err
		}
	}
	if err := r.a.src.CheckUnchanged(); err != nil {
		return wrapTable(r.table, err)
	}
	slices.SortFunc(t.heap, func(a, b topEntry) int {
		return cmp.Or(cmp.Compare(a.k, b.k), cmp.Compare(a.row, b.row))
	})
	t.res, t.done = t.heap, len(t.heap) < t.n
	return nil
}

// setBox copies the iterator's chunk into t.box.
func (t *TopK) setBox(ch *planner.Chunk) {
	b := &t.box
	b.id = ch.ID
	copy(b.start[:], ch.Start)
	copy(b.extent[:], ch.Extent)
	copy(b.lo[:], ch.Lo)
	copy(b.hi[:], ch.Hi)
}

// boxOf sets t.box to chunk id of the plan.
func (t *TopK) boxOf(in *array.Info, plan *planner.Plan, id int64) {
	b := &t.box
	b.id = id
	in.ChunkBox(id, b.start[:t.rank], b.extent[:t.rank])
	for a := range t.rank {
		lo, hi := plan.Interval(a)
		b.lo[a] = max(lo-b.start[a], 0)
		b.hi[a] = min(hi-b.start[a], b.extent[a])
	}
}

// read reads t.box's chunk, computes and keeps its statistics when it
// has none (known false), and offers its selected elements to the heap
// unless those statistics show that none can enter it.
func (t *TopK) read(r *Reader, st *ScanStats, known bool) error {
	b := &t.box
	ch, err := r.Read(b.id, t.buf)
	if err != nil {
		return err
	}
	if ch.Reusable {
		t.buf = ch.Data
	}
	return t.offerChunk(r, st, &ch, known, nil, nil)
}

// offerChunk counts ch, t.box's chunk as read, and offers its selected
// elements to the heap; unless known, it first computes (or takes from
// folded, computed by a parallel read) the chunk's statistics, keeps
// them, and skips the chunk when they show that none of its elements can
// enter the heap. A prefiltered slot (topk_prefilter.go) offers only its
// candidates.
func (t *TopK) offerChunk(r *Reader, st *ScanStats, ch *Chunk, known bool, folded *fold.Stats, pre *topSlot) error {
	b := &t.box
	st.Count(ch)
	t.sess.LiveChunk(boxElements(b.lo[:t.rank], b.hi[:t.rank]))
	t.ev.read(ch, t.chunks)
	var ferr error
	body := func() {
		if !known {
			var s fold.Stats
			if folded != nil {
				s = *folded
			} else {
				var zero [planner.MaxRank]int64
				var err error
				s, err = fold.FoldBox(t.dt, ch.Data, b.extent[:t.rank], zero[:t.rank], b.extent[:t.rank])
				if err != nil {
					ferr = fmt.Errorf("tet: %s: chunk %d: %w", r.table, b.id, err)
					return
				}
			}
			r.a.stats.put(b.id, s)
			// The chunk's statistics, just computed, may show that
			// none of its elements can enter the heap.
			cs := ChunkStat{Count: s.Count(), Nulls: s.NullCount()}
			if cs.Count > 0 {
				cs.Min, cs.Max = emitted(s.IntMin, s.Min), emitted(s.IntMax, s.Max)
			}
			if c := t.bound(b, cs); t.excluded(&c) {
				return
			}
		}
		if pre != nil && pre.filtered {
			t.offerCands(ch.Data, pre.cands)
			return
		}
		t.scanBox(ch.Data)
	}
	if !ch.Info.InPlace {
		body()
		return ferr
	}
	// An in-place chunk is a view of the mapping: read it under the
	// source's fault guard (a file truncated under the query fails it).
	if err := r.a.src.Guard(body); err != nil {
		return wrapTable(r.table, err)
	}
	return ferr
}
