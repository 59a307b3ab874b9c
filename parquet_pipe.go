package tetsql

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"

	"github.com/tetsql/tetsql/internal/colbatch"
)

// pipeWriter splits a fast-path export over two goroutines: the caller's
// fills batches from the scan and converts them to Parquet values (about
// half the work), a writer goroutine encodes and compresses the pages and
// ends row groups (the other half). Row groups must hold consecutive
// rows, so running groups side by side would need a whole group buffered
// ahead; the pipeline needs only a few batches. Memory: pipeDepth batches
// of values, plus the row group being written.
type pipeWriter struct {
	f      *parquetFile
	free   chan *valueBatch
	made   int
	in     chan *valueBatch
	done   chan struct{}
	failed atomic.Bool
	errMu  sync.Mutex
	err    error
}

// pipeDepth is the number of batches of values in flight.
const pipeDepth = 4

// valueBatch is m rows of the file's columns as Parquet values, column
// by column.
type valueBatch struct {
	vals [][]parquet.Value
	m    int
}

// newPipeWriter starts the writer goroutine of f.
func newPipeWriter(f *parquetFile) *pipeWriter {
	p := &pipeWriter{f: f, free: make(chan *valueBatch, pipeDepth), in: make(chan *valueBatch, pipeDepth),
		done: make(chan struct{})}
	go p.run()
	return p
}

// write converts m rows held in vecs (every column of the file, in order)
// and hands them to the writer goroutine; before is the number of rows
// written ahead of them, for messages.
func (p *pipeWriter) write(vecs []colbatch.Vec, m int, before int64) error {
	var b *valueBatch
	select {
	case b = <-p.free:
	default:
		if p.made < pipeDepth {
			p.made++
			b = &valueBatch{vals: make([][]parquet.Value, len(vecs))}
		} else {
			b = <-p.free
		}
	}
	for j := range vecs {
		if cap(b.vals[j]) < m {
			b.vals[j] = make([]parquet.Value, m)
		}
		c := &p.f.cols[p.f.idx[j]]
		if err := c.vecValues(&vecs[j], b.vals[j][:m], j); err != nil {
			p.free <- b
			return fmt.Errorf("parquet: column %q, row %d: %w", c.name, before+1, err)
		}
	}
	b.m = m
	p.in <- b
	return nil
}

// run writes the batches to the file's column writers and ends a row
// group every groupRows rows.
func (p *pipeWriter) run() {
	defer close(p.done)
	for b := range p.in {
		if !p.failed.Load() {
			if err := p.writeBatch(b); err != nil {
				p.fail(err)
			}
		}
		p.free <- b
	}
}

// writeBatch writes one batch; a batch never crosses a row group's end.
func (p *pipeWriter) writeBatch(b *valueBatch) error {
	f := p.f
	cws := f.pw.ColumnWriters()
	for j := range b.vals {
		if _, err := cws[j].WriteRowValues(b.vals[j][:b.m]); err != nil {
			return fmt.Errorf("parquet: %w", err)
		}
	}
	f.inGroup += int64(b.m)
	if f.inGroup == f.groupRows {
		f.inGroup = 0
		if err := f.pw.Flush(); err != nil {
			return fmt.Errorf("parquet: %w", err)
		}
	}
	return nil
}

// fail records the first error of the writer goroutine.
func (p *pipeWriter) fail(err error) {
	p.errMu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.errMu.Unlock()
	p.failed.Store(true)
}

// finish waits for the writer goroutine to write every batch and returns
// its first error.
func (p *pipeWriter) finish() error {
	close(p.in)
	<-p.done
	p.errMu.Lock()
	defer p.errMu.Unlock()
	return p.err
}
