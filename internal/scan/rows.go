package scan

import "fmt"

// The row walk of a CellScan: the cursor asks for one row at a time.

// checkRows is how many positions a scan steps between two checks of
// the call context (a check is an atomic load and a channel poll).
const checkRows = 1024

// maxRun is the most elements fill copies at once (64 KiB of f64).
const maxRun = 8192

// Eof reports the end of rows; after a read error it stays false so that
// SQLite asks for a column and receives the error message.
func (c *CellScan) Eof() bool { return c.eof && c.err == nil }

// Err is the scan's read error, if any.
func (c *CellScan) Err() error { return c.err }

// Rowid is the current element's global row-major index.
func (c *CellScan) Rowid() int64 { return c.rowid }

// Index is the current element's global index along axis a.
func (c *CellScan) Index(a int) int64 { return c.ch.Start[a] + c.local[a] }

// Next moves to the next row. A read error is kept (Err) and returned
// by the following Next. It is advance with the row counted, written
// out so that a row costs the cursor no more calls than it did before
// the engine had a package of its own.
func (c *CellScan) Next() error {
	if c.err != nil || c.remaining == 0 {
		return c.stop()
	}
	for {
		if c.tick++; c.tick%checkRows == 0 && !c.callLive() {
			return nil
		}
		if c.step() {
			if (c.rowFilter || c.check) && !c.keep() {
				if c.err != nil {
					return nil
				}
				continue
			}
			c.countRow()
			return nil
		}
		if !c.crossChunk() {
			return nil
		}
		if !(c.rowFilter || c.check) || c.keep() {
			c.countRow()
			return nil
		}
		if c.err != nil {
			return nil
		}
	}
}

// Step is Next then Eof in one call: the per-row call of a scan that a
// binding can make straight into the engine.
func (c *CellScan) Step() (eof bool, err error) {
	err = c.Next()
	return c.Eof(), err
}

// stop is Next after an error or at the LIMIT.
func (c *CellScan) stop() error {
	if c.err != nil {
		return c.err
	}
	c.eof = true
	c.checkEnd()
	return nil
}

func (c *CellScan) countRow() {
	if c.eof {
		return
	}
	c.Stats.Rows++
	if c.remaining > 0 {
		c.remaining--
	}
}

// reposition recomputes off and rowid from local.
func (c *CellScan) reposition() {
	var off, rowid int64
	shape := c.shape
	for a := range shape {
		off += c.local[a] * c.cstride[a]
		rowid = rowid*shape[a] + c.ch.Start[a] + c.local[a]
	}
	c.off, c.rowid = off, rowid
}

// Value returns the bytes holding the current element and its index in
// them, filling vals when off lies outside; ok is false (and Err set)
// when the copy failed.
func (c *CellScan) Value() (vals []byte, i int, ok bool) {
	if c.off < c.vbase || c.off >= c.vend {
		return c.refill()
	}
	return c.vals, int(c.off - c.vbase), true
}

// refill is Value when off lies outside vals.
func (c *CellScan) refill() (vals []byte, i int, ok bool) {
	if !c.fill() {
		return nil, 0, false
	}
	return c.vals, int(c.off - c.vbase), true
}

// fill copies the run of selected elements that starts at off, as far
// as they lie contiguously in the chunk, out of the source's memory into
// c.run. The copy runs under the source's fault guard, so that a file
// truncated under the scan ends it with an error instead of a SIGBUS;
// one guarded copy per run (per chunk on a full scan, up to maxRun
// elements) keeps the guard's cost off the rows. It runs only when a
// value is asked for: scans that read no value (count(*), dims only)
// copy nothing.
func (c *CellScan) fill() bool {
	ch := c.ch
	last := c.last
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
	size := c.size
	if int64(cap(c.run)) < n*size {
		c.run = make([]byte, n*size)
	}
	c.run = c.run[:n*size]
	if _, err := c.r.a.src.Copy(c.run, c.data[c.off*size:(c.off+n)*size]); err != nil {
		c.vals, c.vbase, c.vend = nil, 0, -1
		c.fail(wrapTable(c.r.table, err))
		return false
	}
	c.vals, c.vbase, c.vend = c.run, c.off, c.off+n
	return true
}

// step moves to the next selected position inside the chunk.
func (c *CellScan) step() bool {
	a := c.last
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
// the end and err on a read failure, and reports whether a row is
// current. Next is advance with the row counted.
func (c *CellScan) advance() bool {
	for {
		if c.tick++; c.tick%checkRows == 0 && !c.callLive() {
			return false
		}
		if c.step() {
			if (c.rowFilter || c.check) && !c.keep() {
				if c.err != nil {
					return false
				}
				continue
			}
			return true
		}
		if !c.crossChunk() {
			return false
		}
		if !(c.rowFilter || c.check) || c.keep() {
			return true
		}
		if c.err != nil {
			return false
		}
	}
}

// callLive checks the call's context, failing the scan once it is done,
// and adds the rows emitted since the last update to the session's live
// counters (so that a long chunk shows progress too).
func (c *CellScan) callLive() bool {
	c.flushLive()
	if err := c.sess.Interrupted(); err != nil {
		c.fail(err)
		return false
	}
	return true
}

// crossChunk moves to the next planned chunk and loads it; it sets eof
// at the end of the plan and err on a read failure.
func (c *CellScan) crossChunk() bool {
	if !c.nextChunk() {
		c.eof = true
		c.checkEnd()
		return false
	}
	for {
		c.ch = c.it.Chunk()
		if err := c.load(); err != nil {
			c.fail(err)
			return false
		}
		if c.ch != nil {
			return true
		}
		if !c.nextChunk() { // the chunk's statistics excluded it
			c.eof = true
			c.checkEnd()
			return false
		}
	}
}

// keep reports whether the current position passes the rowid filter
// and, in a chunk whose elements are tested, the value terms; it is
// false with err set when the element could not be read.
//
// Without a rowid filter it moves along the current row (the selected
// positions along the last axis) to its first passing element, one
// typed loop over the row's values (nextPassing).
func (c *CellScan) keep() bool {
	if !c.rowFilter {
		return c.nextPassing()
	}
	if c.rowid < c.rlo || c.rowid >= c.rhi {
		return false
	}
	if !c.check {
		return true
	}
	vals, i, ok := c.Value()
	return ok && c.vf.passes(vals, i)
}

// nextPassing moves from the current position along its row to the
// first element that passes the value terms; when none does it stops on
// the row's last element and reports false (the caller steps on).
func (c *CellScan) nextPassing() bool {
	last := c.last
	for left := c.ch.Hi[last] - c.local[last]; left > 0; {
		vals, i, ok := c.Value()
		if !ok {
			return false
		}
		n := min(left, c.vend-c.off) // elements of the row in vals
		k := int64(c.vf.find(vals, i, int(n)))
		if k == n {
			k = n - 1 // stop on the last one looked at
		}
		c.local[last] += k
		c.off += k
		c.rowid += k
		left -= k
		if k < n-1 || c.vf.passes(vals, i+int(k)) {
			return true
		}
		if left == 1 {
			return false
		}
		c.local[last]++ // past the failing one, into the next run of vals
		c.off++
		c.rowid++
		left--
	}
	return false
}

// wrapTable prefixes err with the table.
func wrapTable(table string, err error) error { return fmt.Errorf("tet: %s: %w", table, err) }
