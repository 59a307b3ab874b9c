package scan

import (
	"runtime"
	"sync/atomic"

	"github.com/tetsql/tetsql/planner"
)

// readAhead reads the chunks that follow the scan's current one on
// worker goroutines, through the scan's Reader (so through the cache and
// under the table's limit, like any read). Its slots form a ring: the
// scan reads the slot before next; the queued slots from next on hold
// submitted chunks in plan order. A second iterator over the same plan
// (ahead) names them. Memory is bounded by the slots' buffers: depth+1
// decoded chunks.
//
// Ownership: the scan fills a slot and sends it to a worker, which
// reads and signals ready; the scan touches the slot again only after
// receiving ready. The workers share the scan's pin on the source, so a
// read still running when the scan closes keeps the source open; jobs
// of an older generation (before a new Filter or Close) are skipped.
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
	pin       *sourcePin
	r         Reader
	skip      func(id int64) bool // the scan's chunk skipping
	boxes     bool                // chunks may be read in part (see CellScan.boxRead)
}

type raSlot struct {
	id  int64
	gen int64
	// box, lo, hi and rank: read only the chunk-local box [lo, hi).
	box    bool
	lo, hi [planner.MaxRank]int64
	rank   int
	busy   bool // submitted, ready not yet received (scan-owned flag)
	buf    []byte
	c      Chunk
	err    error
	ready  chan struct{} // capacity 1: one signal per job
}

// sourcePin counts the holders of a scan's pin on its source: the scan
// and every read in flight. The last one releases it.
type sourcePin struct {
	src *Source
	n   atomic.Int32
}

func (p *sourcePin) release() {
	if p.n.Add(-1) == 0 {
		p.src.Release()
	}
}

// startReadAhead points the ring at the plan's chunks from the one the
// scan's iterator stands on (reached by the same NextSkip(offset)).
func (c *CellScan) startReadAhead(offset int64) {
	ra := c.ra
	s := c.sess
	if ra == nil {
		depth := readAheadDepth(s, c.r.a)
		if depth == 0 {
			return // chunks too large for the budget: read on demand
		}
		par := s.DecodeParallelism
		if par <= 0 {
			par = min(depth, runtime.GOMAXPROCS(0))
		}
		ra = &readAhead{depth: depth, parallel: min(par, depth), r: c.r,
			slots: make([]*raSlot, depth+1), jobs: make(chan *raSlot, depth+1),
			pin: &sourcePin{src: c.r.a.src}}
		ra.pin.n.Store(1) // the scan's own pin (taken by the cursor's Open)
		for i := range ra.slots {
			ra.slots[i] = &raSlot{ready: make(chan struct{}, 1)}
		}
		c.ra = ra
	}
	ra.skip, ra.boxes = c.skip, len(c.terms) == 0
	ra.ahead.Reset(c.plan)
	if _, ok := ra.ahead.NextSkip(offset); !ok {
		return
	}
	ra.pending, ra.exhausted, ra.active = true, false, true
	ra.refill()
}

// DefaultReadAheadBytes is the default bound on the decoded bytes one
// cursor reads ahead (Session.ReadAheadBytes).
const DefaultReadAheadBytes = 256 << 20

// MaxAutoParallelism caps the decode goroutines of a scan reading ahead
// automatically (Session.ReadAhead 0): past a few cores the consumer,
// SQLite stepping through the rows on one thread, is the bottleneck.
const MaxAutoParallelism = 4

// AutoReadAhead is the depth of automatic read-ahead (Session.ReadAhead
// 0) for a session: two chunks per decoding goroutine, so that a worker
// that finishes a chunk has the next one queued while the scan is still
// on an earlier one. The goroutines are DecodeParallelism, or
// min(GOMAXPROCS, MaxAutoParallelism).
func AutoReadAhead(s *Session) int {
	par := s.DecodeParallelism
	if par <= 0 {
		par = min(runtime.GOMAXPROCS(0), MaxAutoParallelism)
	}
	return min(2*par, 64)
}

// readsAhead reports whether a scan of s over more than one chunk,
// starting at chunk first, reads ahead: always when ReadAhead is set,
// never when it is negative, and automatically (0) only for chunks that
// must be decoded — an in-place chunk is a view of the mapped file,
// which read-ahead would only hand between goroutines.
func readsAhead(s *Session, a *Array, first int64) bool {
	switch {
	case s == nil || s.ReadAhead < 0:
		return false
	case s.ReadAhead > 0:
		return true
	}
	ci, ok := a.Chunk(first)
	return ok && !ci.InPlace
}

// readAheadDepth is how many chunks of a a scan of s reads ahead:
// ReadAhead (at most 64; AutoReadAhead for 0), fewer when that many
// decoded chunks would exceed the session's byte budget. The ring then
// holds at most the budget ahead plus the chunk being read.
func readAheadDepth(s *Session, a *Array) int {
	budget := s.ReadAheadBytes
	if budget <= 0 {
		budget = DefaultReadAheadBytes
	}
	in := a.Info()
	per := int64(in.DType.Size()) // one full chunk, decoded
	for d, n := range in.ChunkShape {
		per *= min(n, in.Shape[d])
		if per > budget {
			return 0
		}
	}
	n := s.ReadAhead
	if n == 0 {
		n = AutoReadAhead(s)
	}
	return int(min(int64(min(n, 64)), budget/max(per, 1)))
}

// refill submits chunks until depth are queued or the plan runs out.
func (ra *readAhead) refill() {
	for ra.queued < ra.depth && !ra.exhausted {
		if !ra.pending && !ra.ahead.Next() {
			ra.exhausted = true
			return
		}
		ra.pending = false
		ch := ra.ahead.Chunk()
		id := ch.ID
		if ra.skip != nil && ra.skip(id) {
			continue // the scan skips it too
		}
		if !ra.r.a.has(id) {
			ra.exhausted = true // the scan reports the missing chunk itself
			return
		}
		s := ra.slots[(ra.next+ra.queued)%len(ra.slots)]
		s.id, s.gen, s.busy = id, ra.gen.Load(), true
		s.box, s.rank = ra.boxes && strictBox(ch), len(ch.Lo)
		copy(s.lo[:], ch.Lo)
		copy(s.hi[:], ch.Hi)
		ra.queued++
		if ra.workers < ra.parallel {
			ra.workers++
			go raWorker(ra.jobs, &ra.gen, ra.pin, ra.r)
		}
		ra.pin.n.Add(1)
		ra.jobs <- s // never blocks: at most len(slots) jobs are outstanding
	}
}

// take returns chunk id from the head of the ring, waiting for its read;
// ok is false when the ring cannot serve id (it then stays off until the
// next Filter). A wait ends early when the call's context ends.
func (ra *readAhead) take(id int64, sess *Session) (c Chunk, err error, ok bool) {
	if ra.queued == 0 {
		ra.refill()
	}
	s := ra.slots[ra.next]
	if ra.queued == 0 || s.id != id {
		ra.active = false
		return Chunk{}, nil, false
	}
	if s.busy {
		select {
		case <-s.ready:
		case <-sess.Done(): // nil (never ready) without a cancellable call
			return Chunk{}, sess.Interrupted(), true
		}
		s.busy = false
	}
	ra.queued--
	ra.next = (ra.next + 1) % len(ra.slots)
	ra.refill() // never into s: at most depth < len(slots) slots are queued
	return s.c, s.err, true
}

// stop abandons the queued chunks (before a new Filter): it waits for the
// reads in flight, which then own no slot any more.
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

// close ends the workers without waiting for them and drops the scan's
// share of the pin.
func (ra *readAhead) close() {
	ra.gen.Add(1)
	close(ra.jobs)
	ra.pin.release()
}

// raRead reads one slot. A panic on this goroutine would end the
// process whatever SQLite's thread recovers, so it becomes the slot's
// error, which the scan then reports.
func raRead(s *raSlot, r *Reader) {
	defer func() {
		if p := recover(); p != nil {
			s.c, s.err = Chunk{}, wrapTable(r.table, Internal("", "read-ahead worker", p))
		}
	}()
	PanicPoint("read-ahead worker")
	if s.box {
		s.c, s.err = r.ReadBox(s.id, s.lo[:s.rank], s.hi[:s.rank], s.buf)
	} else {
		s.c, s.err = r.Read(s.id, s.buf)
	}
	if s.err == nil && s.c.Reusable {
		s.buf = s.c.Data
	}
}

// raWorker reads submitted slots until jobs is closed.
func raWorker(jobs <-chan *raSlot, gen *atomic.Int64, pin *sourcePin, r Reader) {
	for s := range jobs {
		if s.gen == gen.Load() {
			raRead(s, &r)
		} else {
			s.c, s.err = Chunk{}, nil
		}
		pin.release()
		s.ready <- struct{}{}
	}
}
