package scan

import "sync/atomic"

// liveCounters are a session's running totals of scan work, which
// another goroutine may read while a statement runs (a progress line).
// Scans add to them once per chunk (and a cells scan its rows every
// checkRows positions too), never per row; they only grow, so a reader
// takes the difference of two snapshots. The padding keeps their cache
// line apart from the session's call pointer, which every scan loads.
type liveCounters struct {
	_            [64]byte
	planned      atomic.Int64
	chunks       atomic.Int64
	rows         atomic.Int64
	filesPlanned atomic.Int64
	filesOpened  atomic.Int64
	_            [64]byte
}

// LiveCounts are a snapshot of a session's live counters: totals since
// the session began, summed over every scan and statement (subtract an
// earlier snapshot for one statement's share). The counters are read one
// by one, so a snapshot taken mid-scan may be a chunk apart between
// fields.
type LiveCounts struct {
	// ChunksPlanned counts the chunks scans set out to read when they
	// started: a cells scan's plan, a fold's chunks, a top-k page's plan.
	// A scan that stops early (LIMIT, a skip by value statistics) reads
	// fewer; a join's inner scan plans again at each outer row.
	ChunksPlanned int64
	// Chunks counts the chunks read (decoded, or taken from the cache).
	Chunks int64
	// Rows counts the rows cells scans emitted (top-k ones included)
	// and the elements folds and top-k scans went through (the selected
	// elements of the chunks they read).
	Rows int64
	// FilesPlanned and FilesOpened count the files many-file scans set
	// out to read and the files they opened.
	FilesPlanned, FilesOpened int64
}

// Sub returns c minus an earlier snapshot o: the work done in between.
func (c LiveCounts) Sub(o LiveCounts) LiveCounts {
	return LiveCounts{ChunksPlanned: c.ChunksPlanned - o.ChunksPlanned, Chunks: c.Chunks - o.Chunks,
		Rows: c.Rows - o.Rows, FilesPlanned: c.FilesPlanned - o.FilesPlanned, FilesOpened: c.FilesOpened - o.FilesOpened}
}

// Live returns a snapshot of the session's live counters; it may be
// called from any goroutine, while the session's scans run.
func (s *Session) Live() LiveCounts {
	if s == nil {
		return LiveCounts{}
	}
	l := &s.live
	return LiveCounts{ChunksPlanned: l.planned.Load(), Chunks: l.chunks.Load(), Rows: l.rows.Load(),
		FilesPlanned: l.filesPlanned.Load(), FilesOpened: l.filesOpened.Load()}
}

// LivePlan adds chunks to the chunks planned (a scan starting).
func (s *Session) LivePlan(chunks int64) {
	if s != nil && chunks > 0 {
		s.live.planned.Add(chunks)
	}
}

// LiveChunk counts one chunk read and rows more rows (or elements)
// scanned.
func (s *Session) LiveChunk(rows int64) {
	if s == nil {
		return
	}
	s.live.chunks.Add(1)
	if rows != 0 {
		s.live.rows.Add(rows)
	}
}

// LiveRows counts rows more rows scanned.
func (s *Session) LiveRows(rows int64) {
	if s != nil && rows != 0 {
		s.live.rows.Add(rows)
	}
}

// LiveFiles adds to the files planned and opened of many-file scans.
func (s *Session) LiveFiles(planned, opened int64) {
	if s == nil {
		return
	}
	if planned != 0 {
		s.live.filesPlanned.Add(planned)
	}
	if opened != 0 {
		s.live.filesOpened.Add(opened)
	}
}

// boxElements is the number of elements of the chunk-local box [lo, hi).
func boxElements(lo, hi []int64) int64 {
	n := int64(1)
	for d := range lo {
		n *= hi[d] - lo[d]
	}
	return n
}
