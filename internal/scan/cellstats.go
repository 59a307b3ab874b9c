package scan

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/fold"
)

// The chunk statistics a cells scan with value terms uses and, on first
// need, computes: each chunk it reads is folded whole once (min, max,
// count, NaN count, with the fold kernels, over the bytes just read: no
// second decode) and its statistics kept for the process in the array's
// ChunkStats, where every later scan, of any connection, finds them.

// chunkTest decides how the value terms meet the chunk just read (c.ch,
// its elements ch): excluded reports that no element can pass (the scan
// moves on); otherwise c.check tells whether its elements need testing
// one by one (not when the statistics prove every element passes).
func (c *CellScan) chunkTest(ch *Chunk) (excluded bool, err error) {
	st, ok := c.r.a.ChunkStat(c.ch.ID)
	if !ok || st.FromFile {
		now, err := c.chunkStat(ch)
		if err != nil {
			return false, err
		}
		if ok {
			c.r.a.checkZone(st, now)
		}
		st = now
	}
	if Excludes(st, c.terms) {
		return true, nil
	}
	c.check = !c.vf.covers(st)
	return false, nil
}

// chunkStat folds the whole chunk ch (flat: statistics ignore shape),
// under the source's fault guard when ch is a view of its memory, and
// keeps the result.
func (c *CellScan) chunkStat(ch *Chunk) (ChunkStat, error) {
	a := c.r.a
	dt := a.Info().DType
	n := int64(len(ch.Data)) / c.size
	ext := [1]int64{n}
	var zero [1]int64
	var s fold.Stats
	var ferr error
	run := func() { s, ferr = fold.FoldBox(dt, ch.Data, ext[:], zero[:], ext[:]) }
	if ch.Info.InPlace {
		if err := a.src.Guard(run); err != nil {
			return ChunkStat{}, wrapTable(c.r.table, err)
		}
	} else {
		run()
	}
	if ferr != nil {
		return ChunkStat{}, fmt.Errorf("tet: %s: chunk %d: %w", c.r.table, c.ch.ID, ferr)
	}
	return a.stats.put(c.ch.ID, s), nil
}
