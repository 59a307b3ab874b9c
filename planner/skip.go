package planner

// NextSkip is Next for a query with an OFFSET: it skips, without yielding
// them, whole chunks whose Selected count is ≤ the remaining offset, and
// returns the offset still to skip row by row inside the chunk it stops on
// (0 ≤ rest < Chunk().Selected). With no rowid filter the skipped chunks
// are found in O(rank · log chunks) by a closed-form binary search, so an
// OFFSET deep into the data neither decodes nor even visits the chunks it
// skips; with a rowid filter the chunks are stepped over one by one (still
// without decoding), since Selected is exact there too. When the plan runs
// out, ok is false and rest is the offset left unconsumed. A negative
// offset counts as 0.
func (it *Iter) NextSkip(offset int64) (rest int64, ok bool) {
	p := it.p
	if offset <= 0 || p == nil || p.Empty() {
		return 0, it.Next()
	}
	if p.rowFilter {
		for it.Next() {
			if it.chunk.Selected > offset {
				return offset, true
			}
			offset -= it.chunk.Selected
		}
		return offset, false
	}
	from := p.tStart
	if it.started {
		from = min(it.t+1, p.tEnd)
	}
	base := p.prefix(true, from)
	// First candidate t whose end passes the offset: prefix(t+1)-base > offset.
	t := searchOrdinal(from, p.tEnd, func(t int64) bool { return p.prefix(true, t+1)-base > offset })
	rest = offset - (p.prefix(true, t) - base)
	it.seek(t)
	if t >= p.tEnd {
		return rest, false
	}
	it.fill()
	return rest, true
}
