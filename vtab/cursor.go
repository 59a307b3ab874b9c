package vtab

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tetsql/tetsql/internal/sqlitevt"

	"github.com/tetsql/tetsql/planner"
	"github.com/tetsql/tetsql/tetcore"
)

// cellsCursor walks the planned chunks of one dataset, emitting only the
// selected positions of each, decoding every chunk once and allocating
// nothing per row. Every checkRows rows and at every chunk it checks the
// session's call context, so that a canceled query stops promptly.
type cellsCursor struct {
	t     *cellsTable
	plan  planner.Plan
	it    planner.Iter
	cons  []planner.Constraint
	specs []argSpec
	spec  string // idxStr that specs were parsed from

	buf  []byte // zstd decode buffer, reused
	data []byte // current chunk's decoded elements
	ch   *planner.Chunk

	// Values are read from vals, which holds elements [vbase, vend) of
	// data: all of data for a decoded chunk, or for a raw chunk (a view
	// of the mapping) a copy of the run of selected elements being read,
	// taken under the file's fault guard (see fill).
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
	vterms    []valueTerm // value terms, to skip chunks by cached statistics
	tick      uint32      // positions stepped, for the cancellation check
	ra        *readAhead  // nil until the session's read-ahead is first used

	prevRaw *tetcore.Chunk // raw chunk being read, evicted when left
	started time.Time
	checked time.Time // last check that the file is unchanged on disk
	stats   ScanStats
}

// argSpec is one parsed idxStr entry.
type argSpec struct {
	target planner.Target
	op     planner.Op
	kind   byte // 'c' constraint, 'v' value term, 'L' limit, 'O' offset
}

func parseIdxStr(s string) ([]argSpec, error) {
	if s == "" {
		return nil, nil
	}
	var out []argSpec
	for _, p := range strings.Split(s, ",") {
		switch {
		case p == "L" || p == "O":
			out = append(out, argSpec{kind: p[0]})
			continue
		case len(p) < 2:
			return nil, fmt.Errorf("tet: bad plan %q", s)
		}
		var sp argSpec
		sp.kind = 'c'
		rest := p[1:]
		switch p[0] {
		case 'v':
			sp.kind = 'v'
		case 'r':
			sp.target = planner.RowID()
		case 'd', 'l':
			i := 0
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			axis, err := strconv.Atoi(rest[:i])
			if err != nil {
				return nil, fmt.Errorf("tet: bad plan %q", s)
			}
			rest = rest[i:]
			sp.target = planner.Dim(axis)
			if p[0] == 'l' {
				sp.target = planner.Label(axis)
			}
		default:
			return nil, fmt.Errorf("tet: bad plan %q", s)
		}
		found := false
		for op, name := range opNames {
			if name == rest {
				sp.op, found = op, true
			}
		}
		if !found {
			return nil, fmt.Errorf("tet: bad plan %q", s)
		}
		out = append(out, sp)
	}
	return out, nil
}

// Filter plans the chunks for one set of argument values. SQLite calls it
// once per value of an IN list; statistics add up over the calls.
func (c *cellsCursor) Filter(idxNum int, idxStr string, vals []sqlitevt.Value) error {
	panicPoint("xFilter")
	if c.started.IsZero() {
		c.started = time.Now()
		c.checked = c.started // Open's Acquire checked the file
	}
	c.stats.Filters++
	c.err, c.eof, c.data = nil, true, nil
	if c.ra != nil {
		c.ra.stop()
	}
	if idxStr != c.spec || c.specs == nil {
		specs, err := parseIdxStr(idxStr)
		if err != nil {
			return err
		}
		c.specs, c.spec = specs, idxStr
	}
	if len(vals) != len(c.specs) {
		return fmt.Errorf("tet: %s: plan expects %d arguments, got %d", c.t.qualified, len(c.specs), len(vals))
	}
	c.cons, c.vterms = c.cons[:0], c.vterms[:0]
	var offset int64
	c.remaining = -1
	for i, sp := range c.specs {
		v := vals[i]
		switch sp.kind {
		case 'L':
			n, ok := v.(int64)
			if !ok {
				return nil // non-integer LIMIT: SQLite errors out itself
			}
			c.remaining = max(n, 0)
			if n < 0 {
				c.remaining = -1 // LIMIT -1 means no limit
			}
			continue
		case 'O':
			if n, ok := v.(int64); ok && n > 0 {
				offset = n
			}
			continue
		case 'v':
			if vt, ok := newValueTerm(sp.op, v); ok {
				c.vterms = append(c.vterms, vt)
			}
			continue
		}
		if sp.target.Kind != planner.KindLabel {
			var all bool
			v, all = numericAffinity(v, sp.op)
			if all {
				continue // e.g. dim < 'text': every integer sorts before TEXT
			}
		}
		c.cons = append(c.cons, planner.Constraint{Target: sp.target, Op: sp.op, Value: v})
	}
	if err := c.plan.Reset(c.t.geom, c.cons); err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
	}
	c.rlo, c.rhi, c.rowFilter = c.plan.RowIDFilter()
	c.it.Reset(&c.plan)
	if c.remaining == 0 {
		return nil
	}
	rest, ok := c.it.NextSkip(offset)
	if ok && c.skip(c.it.Chunk().ID) {
		c.stats.ChunksSkipped++
		ok = c.nextChunk() // value terms are never combined with OFFSET
	}
	if !ok {
		return nil
	}
	if s := c.t.session; s != nil && s.ReadAhead > 0 && c.remaining < 0 && c.plan.ChunkCount() > 1 {
		c.startReadAhead(s, offset)
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

// numericAffinity converts a TEXT value compared with an INTEGER column
// the way SQLite's numeric affinity does. A value that stays TEXT or BLOB
// sorts after every integer: "col op v" then selects nothing (nil) or,
// for < and <=, everything (all = true).
func numericAffinity(v any, op planner.Op) (out any, all bool) {
	var isText bool
	switch x := v.(type) {
	case string:
		if n, ok := parseNumeric(x); ok {
			return n, false
		}
		isText = true
	case []byte:
		isText = true
	}
	if !isText {
		return v, false
	}
	if op == planner.OpLT || op == planner.OpLE {
		return nil, true
	}
	return nil, false
}

// parseNumeric accepts what SQLite's numeric affinity converts (its
// sqlite3AtoF): the text up to the first NUL, less ASCII white space
// (" \t\n\v\f\r", not other Unicode spaces) on both ends, must be a
// decimal integer or real literal, optionally signed. An integer that
// fits int64 stays an integer; anything else becomes a REAL, out-of-range
// exponents included ("1e400" is +Inf, "1e-400" is 0). Hex, "inf", "nan"
// and digit separators stay TEXT.
func parseNumeric(s string) (any, bool) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, " \t\n\v\f\r")
	if s == "" {
		return nil, false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r == '.' || r == 'e' || r == 'E' || r == '+' || r == '-') {
			return nil, false
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err == nil || errors.Is(err, strconv.ErrRange) {
		return f, true
	}
	return nil, false
}

// enterChunk decodes the iterator's current chunk and positions on its
// first selected element that passes the rowid filter.
func (c *cellsCursor) enterChunk() error {
	for {
		c.ch = c.it.Chunk()
		if err := c.load(); err != nil {
			c.fail(err)
			return err
		}
		c.eof = false
		if !c.rowFilter || (c.rowid >= c.rlo && c.rowid < c.rhi) {
			return nil
		}
		if c.advance() {
			return nil
		}
		if c.err != nil || c.eof {
			return c.err
		}
	}
}

// fail records a read error (or the call context's) for Column, Next and
// the driver, which asks the session for it.
func (c *cellsCursor) fail(err error) {
	c.err = err
	c.t.session.setErr(err)
}

// load reads the current chunk and positions at the sub-box's corner.
func (c *cellsCursor) load() error {
	t := c.t
	ds := t.ds
	if err := t.session.interrupted(); err != nil {
		return err
	}
	ch, ok := ds.Chunk(c.ch.ID)
	if !ok {
		return fmt.Errorf("tet: dataset %q chunk %v: %w", ds.Name, c.ch.Coords, tetcore.ErrMissingChunk)
	}
	hits := c.stats.CacheHits
	data, err := c.read(ch)
	if err != nil {
		if err == t.session.interrupted() {
			return err // the call's context ended during a read-ahead wait
		}
		return fmt.Errorf("tet: %s: %w", t.qualified, err)
	}
	if ch.Codec == tetcore.CodecZstd && c.stats.CacheHits == hits {
		c.stats.BytesDecoded += ch.RawLen
	}
	c.evict(ch)
	c.data = data
	c.vals, c.vbase, c.vend = data, 0, math.MaxInt64
	if ch.Codec == tetcore.CodecRaw {
		c.vals, c.vend = nil, -1 // fill copies runs out of the mapping
	}
	c.stats.ChunksDecoded++
	c.stats.BytesRead += ch.StoredLen
	r := ds.Rank()
	s := int64(1)
	for a := r - 1; a >= 0; a-- {
		c.cstride[a] = s
		s *= c.ch.Extent[a]
		c.local[a] = c.ch.Lo[a]
	}
	c.reposition()
	return nil
}

// reposition recomputes off and rowid from local.
func (c *cellsCursor) reposition() {
	var off, rowid int64
	shape := c.t.ds.Shape
	for a := range shape {
		off += c.local[a] * c.cstride[a]
		rowid = rowid*shape[a] + c.ch.Start[a] + c.local[a]
	}
	c.off, c.rowid = off, rowid
}

// maxRun is the most elements fill copies at once (64 KiB of f64).
const maxRun = 8192

// value returns the bytes holding the current element and its index in
// them, filling vals when off lies outside; ok is false (and c.err set)
// when the copy failed.
func (c *cellsCursor) value() (vals []byte, i int, ok bool) {
	if c.off < c.vbase || c.off >= c.vend {
		if !c.fill() {
			return nil, 0, false
		}
	}
	return c.vals, int(c.off - c.vbase), true
}

// fill copies the run of selected elements that starts at off, as far
// as they lie contiguously in the chunk, out of the mapping into c.run.
// The copy runs under the file's fault guard, so that a file truncated
// under the scan ends it with an error instead of a SIGBUS; one guarded
// copy per run (per chunk on a full scan, up to maxRun elements) keeps
// the guard's cost off the rows. It runs only when a value is asked for:
// scans that read no value (count(*), dims only) copy nothing.
func (c *cellsCursor) fill() bool {
	ch := c.ch
	last := len(c.t.ds.Shape) - 1
	n := ch.Hi[last] - c.local[last]
	stride := int64(1)
	for a := last; a > 0 && n < maxRun; a-- {
		if ch.Lo[a] != 0 || ch.Hi[a] != ch.Extent[a] || c.local[a] != 0 {
			break // axis a is cut: the run ends with this row
		}
		stride *= ch.Extent[a]
		n = (ch.Hi[a-1] - c.local[a-1]) * stride
	}
	n = min(n, maxRun)
	size := int64(c.t.ds.DType.Size())
	if int64(cap(c.run)) < n*size {
		c.run = make([]byte, n*size)
	}
	c.run = c.run[:n*size]
	if _, err := c.t.h.File.Copy(c.run, c.data[c.off*size:(c.off+n)*size]); err != nil {
		c.vals, c.vbase, c.vend = nil, 0, -1
		c.fail(fmt.Errorf("tet: %s: %w", c.t.qualified, err))
		return false
	}
	c.vals, c.vbase, c.vend = c.run, c.off, c.off+n
	return true
}

// step moves to the next selected position inside the chunk.
func (c *cellsCursor) step() bool {
	a := len(c.t.ds.Shape) - 1
	c.local[a]++
	if c.local[a] < c.ch.Hi[a] {
		c.off++
		c.rowid++
		return true
	}
	for {
		c.local[a] = c.ch.Lo[a]
		a--
		if a < 0 {
			return false
		}
		c.local[a]++
		if c.local[a] < c.ch.Hi[a] {
			break
		}
	}
	c.reposition()
	return true
}

// advance moves to the next emitted row, across chunks; it sets eof at
// the end and err on a read failure, and reports whether a row is current.
func (c *cellsCursor) advance() bool {
	for {
		if c.tick++; c.tick%checkRows == 0 {
			if err := c.t.session.interrupted(); err != nil {
				c.fail(err)
				return false
			}
		}
		if c.step() {
			if c.rowFilter && (c.rowid < c.rlo || c.rowid >= c.rhi) {
				continue
			}
			return true
		}
		if !c.nextChunk() {
			c.eof = true
			c.checkEnd()
			return false
		}
		c.ch = c.it.Chunk()
		if err := c.load(); err != nil {
			c.fail(err)
			return false
		}
		if !c.rowFilter || (c.rowid >= c.rlo && c.rowid < c.rhi) {
			return true
		}
	}
}

func (c *cellsCursor) countRow() {
	if c.eof {
		return
	}
	c.stats.Rows++
	if c.remaining > 0 {
		c.remaining--
	}
}

// Next moves to the next row. A read error is kept and reported through
// Column (which carries a message to SQLite) and the following Next.
func (c *cellsCursor) Next() error {
	if c.err != nil {
		return c.err
	}
	if c.remaining == 0 {
		c.eof = true
		c.checkEnd()
		return nil
	}
	if c.advance() {
		c.countRow()
	}
	return nil
}

// checkEnd fails a scan that reached its end when the file changed on
// disk while it ran: a file rewritten in place between two chunk reads
// would otherwise have given rows of both versions. Open checked the
// file; this is one more stat, at most once a millisecond per cursor,
// so that the many short scans of a join's inner loop do not each pay.
func (c *cellsCursor) checkEnd() {
	now := time.Now()
	if now.Sub(c.checked) < time.Millisecond {
		return
	}
	c.checked = now
	if err := c.t.h.File.CheckUnchanged(); err != nil {
		c.fail(fmt.Errorf("tet: %s: %w", c.t.qualified, err))
	}
}

// Eof reports the end of rows; after a read error it stays false so that
// SQLite asks for a column and receives the error message.
func (c *cellsCursor) Eof() bool { return c.eof && c.err == nil }

// Rowid is the element's global row-major index.
func (c *cellsCursor) Rowid() (int64, error) {
	panicPoint("xRowid")
	return c.rowid, c.err
}

// Close records the scan's statistics and unpins the file.
func (c *cellsCursor) Close() error {
	panicPoint("xClose")
	if !c.started.IsZero() {
		c.stats.Elapsed = time.Since(c.started)
		c.t.record(c.stats)
	}
	if c.ra != nil {
		c.ra.close() // releases the file once no decode is in flight
		c.ra = nil
	} else {
		c.t.h.File.Release()
	}
	return nil
}

// checkRows is how many positions a cursor steps between two checks of
// the call context (a check is an atomic load and a channel poll).
const checkRows = 1024

// read returns chunk ch's elements: from the read-ahead ring when it is
// running and in step, else decoded here into c.buf.
func (c *cellsCursor) read(ch *tetcore.Chunk) ([]byte, error) {
	if ra := c.ra; ra != nil && ra.active {
		if data, err, ok := ra.take(ch, c.t.session); ok {
			return data, err
		}
	}
	data, hit, cached, err := readCached(c.t.h.File, c.t.ds, ch, c.buf)
	if hit {
		c.stats.CacheHits++
	}
	if err == nil && ch.Codec == tetcore.CodecZstd && !cached {
		c.buf = data
	}
	return data, err
}

// readAhead decodes the chunks that follow the cursor's current one on
// worker goroutines. Its slots form a ring: the cursor reads the slot
// before next; the queued slots from next on hold submitted chunks in
// plan order. A second iterator over the same plan (ahead) names them.
// Memory is bounded by the slots' buffers: depth+1 decoded chunks.
//
// Ownership: the cursor fills a slot and sends it to a worker, which
// decodes and signals ready; the cursor touches the slot again only after
// receiving ready. The workers share the cursor's pin on the file, so a
// decode still running when the cursor closes keeps the mapping alive;
// jobs of an older generation (before a new Filter or Close) are skipped.
type readAhead struct {
	ahead     planner.Iter
	pending   bool // ahead's current chunk is not yet submitted
	exhausted bool // ahead has no more chunks
	active    bool // this Filter reads through the ring
	slots     []*raSlot
	next      int // slot of the next chunk to consume
	queued    int // slots submitted and not yet consumed
	depth     int // most slots queued at once
	workers   int // goroutines started
	parallel  int // most goroutines
	jobs      chan *raSlot
	gen       atomic.Int64
	pin       *filePin
	ds        *tetcore.Dataset
	skip      func(id int64) bool // the cursor's chunk skipping
}

type raSlot struct {
	ds    *tetcore.Dataset
	ch    *tetcore.Chunk
	gen   int64
	busy  bool // submitted, ready not yet received (cursor-owned flag)
	buf   []byte
	data  []byte
	err   error
	ready chan struct{} // capacity 1: one signal per job
}

// filePin counts the holders of a cursor's Acquire of the file: the
// cursor and every decode in flight. The last one releases it.
type filePin struct {
	f *tetcore.File
	n atomic.Int32
}

func (p *filePin) release() {
	if p.n.Add(-1) == 0 {
		p.f.Release()
	}
}

// startReadAhead points the ring at the plan's chunks from the one the
// cursor's iterator stands on (reached by the same NextSkip(offset)).
func (c *cellsCursor) startReadAhead(s *Session, offset int64) {
	ra := c.ra
	if ra == nil {
		depth := readAheadDepth(s, c.t.ds)
		if depth == 0 {
			return // chunks too large for the budget: decode on demand
		}
		par := s.DecodeParallelism
		if par <= 0 {
			par = min(depth, runtime.GOMAXPROCS(0))
		}
		ra = &readAhead{depth: depth, parallel: min(par, depth), ds: c.t.ds,
			slots: make([]*raSlot, depth+1), jobs: make(chan *raSlot, depth+1),
			pin: &filePin{f: c.t.h.File}}
		ra.pin.n.Store(1) // the cursor's own Acquire (taken by Open)
		for i := range ra.slots {
			ra.slots[i] = &raSlot{ds: c.t.ds, ready: make(chan struct{}, 1)}
		}
		c.ra = ra
	}
	ra.skip = c.skip
	ra.ahead.Reset(&c.plan)
	if _, ok := ra.ahead.NextSkip(offset); !ok {
		return
	}
	ra.pending, ra.exhausted, ra.active = true, false, true
	ra.refill()
}

// DefaultReadAheadBytes is the default bound on the decoded bytes one
// cursor reads ahead (Session.ReadAheadBytes).
const DefaultReadAheadBytes = 256 << 20

// readAheadDepth is how many chunks of ds a cursor of s reads ahead:
// ReadAhead (at most 64), fewer when that many decoded chunks would
// exceed the session's byte budget. The ring then holds at most the
// budget ahead plus the chunk being read.
func readAheadDepth(s *Session, ds *tetcore.Dataset) int {
	budget := s.ReadAheadBytes
	if budget <= 0 {
		budget = DefaultReadAheadBytes
	}
	per := int64(ds.DType.Size()) // one full chunk, decoded
	for a, n := range ds.ChunkShape {
		per *= min(n, ds.Shape[a])
		if per > budget {
			return 0
		}
	}
	return int(min(int64(min(s.ReadAhead, 64)), budget/max(per, 1)))
}

// refill submits chunks until depth are queued or the plan runs out.
func (ra *readAhead) refill() {
	for ra.queued < ra.depth && !ra.exhausted {
		if !ra.pending && !ra.ahead.Next() {
			ra.exhausted = true
			return
		}
		ra.pending = false
		if ra.skip != nil && ra.skip(ra.ahead.Chunk().ID) {
			continue // the cursor skips it too
		}
		ch, ok := ra.ds.Chunk(ra.ahead.Chunk().ID)
		if !ok {
			ra.exhausted = true // the cursor reports the missing chunk itself
			return
		}
		s := ra.slots[(ra.next+ra.queued)%len(ra.slots)]
		s.ch, s.gen, s.busy = ch, ra.gen.Load(), true
		ra.queued++
		if ra.workers < ra.parallel {
			ra.workers++
			go raWorker(ra.jobs, &ra.gen, ra.pin)
		}
		ra.pin.n.Add(1)
		ra.jobs <- s // never blocks: at most len(slots) jobs are outstanding
	}
}

// take returns the decoded chunk ch from the head of the ring, waiting for
// its decode; ok is false when the ring cannot serve ch (it then stays off
// until the next Filter). A wait ends early when the call's context ends.
func (ra *readAhead) take(ch *tetcore.Chunk, sess *Session) (data []byte, err error, ok bool) {
	if ra.queued == 0 {
		ra.refill()
	}
	s := ra.slots[ra.next]
	if ra.queued == 0 || s.ch != ch {
		ra.active = false
		return nil, nil, false
	}
	if s.busy {
		select {
		case <-s.ready:
		case <-sess.done(): // nil (never ready) without a cancellable call
			return nil, sess.interrupted(), true
		}
		s.busy = false
	}
	ra.queued--
	ra.next = (ra.next + 1) % len(ra.slots)
	ra.refill() // never into s: at most depth < len(slots) slots are queued
	return s.data, s.err, true
}

// stop abandons the queued chunks (before a new Filter): it waits for the
// decodes in flight, which then own no slot any more.
func (ra *readAhead) stop() {
	ra.gen.Add(1)
	for _, s := range ra.slots {
		if s.busy {
			<-s.ready
			s.busy = false
		}
	}
	ra.next, ra.queued, ra.active = 0, 0, false
}

// close ends the workers without waiting for them and drops the cursor's
// share of the pin.
func (ra *readAhead) close() {
	ra.gen.Add(1)
	close(ra.jobs)
	ra.pin.release()
}

// raDecode decodes one slot. A panic on this goroutine would end the
// process whatever SQLite's thread recovers, so it becomes the slot's
// error (see safe.go), which the scan then reports.
func raDecode(s *raSlot, pin *filePin) {
	defer func() {
		if p := recover(); p != nil {
			s.data, s.err = nil, internalError("", "read-ahead worker", p)
		}
	}()
	panicPoint("read-ahead worker")
	s.data, s.err = pin.f.ReadChunk(s.ds, s.ch, s.buf)
	if s.err == nil && s.ch.Codec == tetcore.CodecZstd {
		s.buf = s.data
	}
}

// raWorker decodes submitted slots until jobs is closed.
func raWorker(jobs <-chan *raSlot, gen *atomic.Int64, pin *filePin) {
	for s := range jobs {
		if s.gen == gen.Load() {
			raDecode(s, pin)
		} else {
			s.data, s.err = nil, nil
		}
		pin.release()
		s.ready <- struct{}{}
	}
}

// skip reports whether chunk id cannot hold a row matching the value
// terms, by the statistics an aggregate cached for it.
func (c *cellsCursor) skip(id int64) bool {
	if len(c.vterms) == 0 {
		return false
	}
	st, ok := cacheFor(c.t.ds).get(id)
	return ok && excludes(st, c.vterms)
}

// nextChunk advances the iterator past chunks the value terms exclude.
func (c *cellsCursor) nextChunk() bool {
	for c.it.Next() {
		if !c.skip(c.it.Chunk().ID) {
			return true
		}
		c.stats.ChunksSkipped++
	}
	return false
}

// evictFrom is the number of planned chunks from which a scan hands the
// pages of chunks it is done with back to the operating system, so that
// scanning a file larger than memory does not grow the resident set by
// the whole file. Smaller plans (point and slab queries, join lookups)
// keep their pages mapped for the next Filter call.
const evictFrom = 16

// evict drops the mapped pages of stored bytes the scan no longer needs:
// a zstd chunk's as soon as it is decoded, a raw chunk's once the cursor
// moves to another chunk.
func (c *cellsCursor) evict(ch *tetcore.Chunk) {
	if c.plan.ChunkCount() < evictFrom {
		return
	}
	f := c.t.h.File
	if ch.Codec == tetcore.CodecZstd {
		f.Evict(ch)
	}
	if prev := c.prevRaw; prev != nil && prev != ch {
		f.Evict(prev)
	}
	c.prevRaw = nil
	if ch.Codec == tetcore.CodecRaw {
		c.prevRaw = ch
	}
}
