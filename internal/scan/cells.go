package scan

import (
	"math"
	"time"

	"github.com/tetsql/tetsql/planner"
)

// CellScan walks the selected positions of a plan over one array for a
// cells cursor, reading every planned chunk once (through the Reader,
// or ahead of time on other goroutines), skipping the chunks value terms
// exclude by their statistics, and allocating nothing per row. Every
// checkRows rows and at every chunk it checks the session's call
// context, so that a canceled query stops promptly.
type CellScan struct {
	// Quiet leaves the statistics out of the session's record at Close
	// (a many-file table records its files' scans as one).
	Quiet bool

	r     Reader
	sess  *Session
	plan  *planner.Plan
	it    planner.Iter
	ev    cellsEvictor
	size  int64   // element size
	last  int     // last axis (rank-1)
	shape []int64 // the array's shape

	buf  []byte // decode buffer, reused
	data []byte // current chunk's decoded elements
	ch   *planner.Chunk

	// Values are read from vals, which holds elements [vbase, vend) of
	// data: all of data for a decoded chunk, or for an in-place chunk (a
	// view of the source's memory) a copy of the run of selected
	// elements being read, taken under the source's guard (see fill).
	vals  []byte
	vbase int64
	vend  int64
	run   []byte // the copy's buffer, reused

	local   [planner.MaxRank]int64 // position inside the chunk
	cstride [planner.MaxRank]int64 // element strides inside the chunk
	off     int64                  // element index inside data
	rowid   int64

	rowFilter bool
	rlo, rhi  int64
	remaining int64 // rows left under LIMIT; -1 = unlimited
	eof       bool
	err       error
	terms     []ValueTerm // value terms, exact: filter and chunk skipping
	vf        valueFilter // terms compiled for the element type
	check     bool        // the current chunk's elements are tested by vf
	tick      uint32      // positions stepped, for the cancellation check
	ra        *readAhead  // nil until the session's read-ahead is first used

	liveRows int64 // Stats.Rows when last added to the session's live counters

	started time.Time
	checked time.Time // last check that the file is unchanged on disk
	// Stats are the scan's counters, summed over its Filter calls.
	Stats ScanStats
}

// Init starts a scan of r's array for a cursor that has pinned the
// source (Session.Pin); Close releases that pin. A cursor holds its
// CellScan by value (one allocation less per query): c must not be
// copied afterwards.
func (c *CellScan) Init(r Reader, sess *Session) {
	in := r.a.Info()
	*c = CellScan{r: r, sess: sess, ev: cellsEvictor{src: r.a.src}, size: int64(in.DType.Size()),
		last: in.Rank() - 1, shape: in.Shape, eof: true}
	c.Stats.Table, c.Stats.Dataset, c.Stats.ChunksTotal = r.table, in.Name, in.ChunkCount()
}

// Begin starts one Filter call: it counts it and abandons the previous
// call's rows and read-ahead.
func (c *CellScan) Begin() {
	if c.started.IsZero() {
		c.started = time.Now()
		c.checked = c.started // the cursor's pin checked the file
	}
	c.Stats.Filters++
	c.err, c.eof, c.data = nil, true, nil
	if c.ra != nil {
		c.ra.stop()
	}
}

// Start positions the scan on the first row of plan (already reset by
// the caller) past offset rows, emitting at most limit rows (-1: no
// limit) and only the elements that satisfy every value term (each
// exact: Lo == Hi), skipping chunks the terms exclude by their
// statistics; plan must stay valid until the next Begin. With terms the
// offset counts passing rows.
func (c *CellScan) Start(plan *planner.Plan, offset, limit int64, terms []ValueTerm) error {
	c.plan, c.terms, c.remaining, c.check = plan, terms, limit, false
	if len(terms) > 0 {
		c.vf.set(c.r.a.Info().DType, terms)
	}
	c.rlo, c.rhi, c.rowFilter = plan.RowIDFilter()
	c.it.Reset(plan)
	if c.remaining == 0 {
		return nil
	}
	c.sess.LivePlan(plan.ChunkCount())
	skipped := offset // positions NextSkip steps over
	if len(terms) > 0 {
		skipped = 0 // only the scan knows which rows pass
	}
	rest, ok := c.it.NextSkip(skipped)
	rest += offset - skipped
	if ok && c.skip(c.it.Chunk().ID) {
		c.Stats.ChunksSkipped++
		ok = c.nextChunk()
	}
	if !ok {
		return nil
	}
	if c.remaining < 0 && plan.ChunkCount() > 1 && readsAhead(c.sess, c.r.a, c.it.Chunk().ID) {
		c.startReadAhead(skipped)
	}
	if err := c.enterChunk(); err != nil {
		return err
	}
	for ; rest > 0 && !c.eof; rest-- {
		c.advance()
	}
	if c.err != nil {
		return c.err
	}
	c.countRow()
	return nil
}

// enterChunk reads the iterator's current chunk and positions on its
// first selected element that passes the rowid filter and value terms.
func (c *CellScan) enterChunk() error {
	for {
		c.ch = c.it.Chunk()
		if err := c.load(); err != nil {
			c.fail(err)
			return err
		}
		if c.ch == nil { // the statistics read with it exclude it
			if !c.nextChunk() {
				c.eof = true
				c.checkEnd()
				return nil
			}
			continue
		}
		c.eof = false
		if !(c.rowFilter || c.check) || c.keep() {
			return nil
		}
		if c.err != nil {
			return c.err
		}
		if c.advance() {
			return nil
		}
		if c.err != nil || c.eof {
			return c.err
		}
	}
}

// fail records a read error (or the call context's) for the cursor and
// the driver, which asks the session for it.
func (c *CellScan) fail(err error) {
	c.err = err
	c.sess.SetErr(err)
}

// load reads the current chunk and positions at the sub-box's corner;
// it leaves c.ch nil when the chunk's statistics, computed as it is
// read, exclude every element by the value terms.
func (c *CellScan) load() error {
	if err := c.sess.Interrupted(); err != nil {
		return err
	}
	ch, err := c.read(c.ch.ID)
	if err != nil {
		return err
	}
	c.Stats.Count(&ch)
	c.sess.LiveChunk(c.Stats.Rows - c.liveRows)
	c.liveRows = c.Stats.Rows
	c.ev.read(&ch, c.plan.ChunkCount())
	if len(c.terms) > 0 {
		excluded, err := c.chunkTest(&ch)
		if err != nil {
			return err
		}
		if excluded {
			c.ch, c.data = nil, nil
			return nil
		}
	}
	c.data = ch.Data
	c.vals, c.vbase, c.vend = ch.Data, 0, math.MaxInt64
	if ch.Info.InPlace {
		c.vals, c.vend = nil, -1 // fill copies runs out of the source's memory
	}
	s := int64(1)
	for a := c.last; a >= 0; a-- {
		c.cstride[a] = s
		s *= c.ch.Extent[a]
		c.local[a] = c.ch.Lo[a]
	}
	c.reposition()
	return nil
}

// read returns chunk id: from the read-ahead ring when it is running
// and in step, else read here into c.buf.
func (c *CellScan) read(id int64) (Chunk, error) {
	if ra := c.ra; ra != nil && ra.active {
		if ch, err, ok := ra.take(id, c.sess); ok {
			return ch, err
		}
	}
	var ch Chunk
	var err error
	if c.boxRead() {
		ch, err = c.r.ReadBox(id, c.ch.Lo, c.ch.Hi, c.buf)
	} else {
		ch, err = c.r.Read(id, c.buf)
	}
	if err == nil && ch.Reusable {
		c.buf = ch.Data
	}
	return ch, err
}

// boxRead reports whether the current chunk may be read in part: the
// plan selects a strict sub-box of it, and no value term needs the
// chunk's statistics (computed over the whole chunk on first need).
func (c *CellScan) boxRead() bool {
	return len(c.terms) == 0 && strictBox(c.ch)
}

// strictBox reports whether the plan selects a strict sub-box of ch.
func strictBox(ch *planner.Chunk) bool {
	for d, hi := range ch.Hi {
		if ch.Lo[d] > 0 || hi < ch.Extent[d] {
			return true
		}
	}
	return false
}

// skip reports whether chunk id cannot hold a row matching the value
// terms, by its statistics (computed earlier or from the file).
func (c *CellScan) skip(id int64) bool {
	if len(c.terms) == 0 {
		return false
	}
	st, ok := c.r.a.ChunkStat(id)
	return ok && Excludes(st, c.terms)
}

// nextChunk advances the iterator past chunks the value terms exclude.
func (c *CellScan) nextChunk() bool {
	for c.it.Next() {
		if !c.skip(c.it.Chunk().ID) {
			return true
		}
		c.Stats.ChunksSkipped++
	}
	return false
}

// checkEnd fails a scan that reached its end when the file changed on
// disk while it ran: a file rewritten in place between two chunk reads
// would otherwise have given rows of both versions. The pin checked the
// file; this is one more stat, at most once a millisecond per cursor,
// so that the many short scans of a join's inner loop do not each pay.
func (c *CellScan) checkEnd() {
	now := time.Now()
	if now.Sub(c.checked) < time.Millisecond {
		return
	}
	c.checked = now
	if err := c.r.a.src.CheckUnchanged(); err != nil {
		c.fail(wrapTable(c.r.table, err))
	}
}

// Close records the scan's statistics (if a Filter ran) and unpins the
// source.
func (c *CellScan) Close() {
	if !c.started.IsZero() {
		c.flushLive()
		c.Stats.Elapsed = time.Since(c.started)
		if !c.Quiet {
			c.sess.Record(c.Stats)
		}
	}
	if c.ra != nil {
		c.ra.close() // releases the source once no read is in flight
		c.ra = nil
	} else {
		c.r.a.src.Release()
	}
}

// flushLive adds the rows emitted since the last update to the
// session's live counters.
func (c *CellScan) flushLive() {
	c.sess.LiveRows(c.Stats.Rows - c.liveRows)
	c.liveRows = c.Stats.Rows
}

// Started reports whether a Filter ran.
func (c *CellScan) Started() bool { return !c.started.IsZero() }
