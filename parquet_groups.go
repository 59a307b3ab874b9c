package tetsql

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"

	"github.com/tetsql/tetsql/internal/colbatch"
)

// groupWriter writes the row groups of a fast-path export on several
// goroutines: converting values and encoding and compressing pages is
// most of an export's work, and each row group is independent
// (parquet-go's ConcurrentRowGroupWriter), committed to the file in
// order. The scan fills batches on the caller's goroutine; at most
// `workers` row groups are in flight, which bounds memory to that many
// row groups and a few batches.
type groupWriter struct {
	f       *parquetFile
	kinds   []colbatch.Kind
	free    chan []colbatch.Vec // batches to fill, recycled
	made    int                 // batches allocated
	maxMade int
	sem     chan struct{} // a token per row group in flight
	prev    chan struct{} // closed once the latest group is committed or abandoned
	cur     *groupJob
	inGroup int64 // rows sent to cur
	wg      sync.WaitGroup
	failed  atomic.Bool
	errMu   sync.Mutex
	err     error
}

// groupJob is one row group being written by its goroutine.
type groupJob struct {
	rg *parquet.ConcurrentRowGroupWriter
	in chan groupBatch
}

// groupBatch is m rows of the file's columns; before is the number of
// rows written ahead of them, for messages.
type groupBatch struct {
	vecs   []colbatch.Vec
	m      int
	before int64
}

// newGroupWriter writes f's row groups; kinds are the batch vectors'.
func newGroupWriter(f *parquetFile, kinds []colbatch.Kind) *groupWriter {
	workers := max(1, min(runtime.GOMAXPROCS(0), 4))
	prev := make(chan struct{})
	close(prev)
	g := &groupWriter{f: f, kinds: kinds, maxMade: 2*workers + 1, sem: make(chan struct{}, workers), prev: prev}
	g.free = make(chan []colbatch.Vec, g.maxMade)
	return g
}

// batch returns empty vectors to fill, waiting for a writer to give some
// back when all are in use.
func (g *groupWriter) batch() []colbatch.Vec {
	select {
	case v := <-g.free:
		return v
	default:
	}
	if g.made < g.maxMade {
		g.made++
		v := make([]colbatch.Vec, len(g.kinds))
		for j, k := range g.kinds {
			v[j].Kind = k
		}
		return v
	}
	return <-g.free
}

// room is how many rows the current row group still takes.
func (g *groupWriter) room() int64 { return g.f.groupRows - g.inGroup }

// add hands m filled rows to the current row group's goroutine, starting
// one if needed, and ends the group when it is full.
func (g *groupWriter) add(vecs []colbatch.Vec, m int, before int64) {
	if g.cur == nil {
		g.sem <- struct{}{}
		g.cur = &groupJob{rg: g.f.pw.BeginRowGroup(), in: make(chan groupBatch, 2)}
		done := make(chan struct{})
		g.wg.Add(1)
		go g.run(g.cur, g.prev, done)
		g.prev = done
	}
	g.cur.in <- groupBatch{vecs: vecs, m: m, before: before}
	g.inGroup += int64(m)
	if g.inGroup == g.f.groupRows {
		g.endGroup()
	}
}

// endGroup closes the current row group's input.
func (g *groupWriter) endGroup() {
	if g.cur != nil {
		close(g.cur.in)
		g.cur, g.inGroup = nil, 0
	}
}

// run writes one row group's batches, then commits it after the group
// before it (prev), and signals done.
func (g *groupWriter) run(job *groupJob, prev, done chan struct{}) {
	defer g.wg.Done()
	defer func() { <-g.sem }()
	defer close(done)
	var vals []parquet.Value
	cws := job.rg.ColumnWriters()
	for b := range job.in {
		if !g.failed.Load() {
			if cap(vals) < b.m {
				vals = make([]parquet.Value, b.m)
			}
			if err := g.f.writeColumns(cws, b.vecs, vals[:b.m], b.before); err != nil {
				g.fail(err)
			}
		}
		for j := range b.vecs {
			b.vecs[j].Reset()
		}
		g.free <- b.vecs
	}
	<-prev
	if g.failed.Load() {
		return
	}
	if _, err := job.rg.Commit(); err != nil {
		g.fail(fmt.Errorf("parquet: %w", err))
	}
}

// fail records the first error; the others are consequences.
func (g *groupWriter) fail(err error) {
	g.errMu.Lock()
	if g.err == nil {
		g.err = err
	}
	g.errMu.Unlock()
	g.failed.Store(true)
}

// error is the first error of a row group's goroutine, if any.
func (g *groupWriter) error() error {
	g.errMu.Lock()
	defer g.errMu.Unlock()
	return g.err
}

// finish ends the last row group and waits for every goroutine; it
// returns the first error.
func (g *groupWriter) finish() error {
	g.endGroup()
	g.wg.Wait()
	return g.error()
}

// writeColumns writes a batch (every column of the file, in order) to the
// column writers of a row group; vals is scratch of the batch's length.
func (f *parquetFile) writeColumns(cws []*parquet.ColumnWriter, vecs []colbatch.Vec, vals []parquet.Value, before int64) error {
	for j := range vecs {
		c := &f.cols[f.idx[j]]
		if err := c.vecValues(&vecs[j], vals, j); err != nil {
			return fmt.Errorf("parquet: column %q, row %d: %w", c.name, before+1, err)
		}
		if _, err := cws[j].WriteRowValues(vals); err != nil {
			return fmt.Errorf("parquet: %w", err)
		}
	}
	return nil
}
