package scan

// NewCellScan is Init on a new CellScan, for the tests.
func NewCellScan(r Reader, sess *Session) *CellScan {
	c := new(CellScan)
	c.Init(r, sess)
	return c
}

// PutStat sets the statistics kept for chunk id, for the tests.
func (a *Array) PutStat(id int64, s ChunkStat) {
	a.stats.mu.Lock()
	a.stats.m[id] = s
	a.stats.mu.Unlock()
}

// ReadingAhead reports whether the scan's current Filter reads through
// the read-ahead ring, and how deep the ring is, for the tests.
func (c *CellScan) ReadingAhead() (bool, int) {
	if c.ra == nil {
		return false, 0
	}
	return c.ra.active, c.ra.depth
}
