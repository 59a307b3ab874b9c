package scan

// Chunk bounds of a TopK: what the statistics of a chunk say about the
// keys its elements can have, so that chunks which cannot enter the heap
// (or lie wholly before the page) are not read.

// chunkBound is a chunk with statistics: the best key any of its
// elements can have and the smallest rowid of its selected sub-box.
type chunkBound struct {
	id, minRow int64
	best       uint64
	worst      uint64 // the worst key it may hold (paging skips chunks before the page)
	empty      bool
}

// excluded reports whether no element of chunk c can enter the heap.
func (t *TopK) excluded(c *chunkBound) bool {
	if t.resume && c.worst < t.after.k {
		return true // every element sorts before the page
	}
	if len(t.heap) < t.n {
		return false
	}
	top := t.heap[0]
	return c.empty || c.best > top.k || c.best == top.k && c.minRow > top.row
}

// bound is the chunkBound of a planned chunk with statistics.
func (t *TopK) bound(ch *topBox, s ChunkStat) chunkBound {
	b := chunkBound{id: ch.id}
	elems := int64(1)
	for a := range t.rank {
		b.minRow += (ch.start[a] + ch.lo[a]) * t.gstr[a]
		elems *= ch.extent[a]
	}
	nulls := s.Nulls > 0 && !t.noNull // NULLs the top-k may emit
	switch {
	case s.Count+s.Nulls != elems:
		// Statistics that do not count every element (bounds from a file
		// that stores no NULL count, say) bound nothing here: the chunk
		// may hold NULLs, or values outside [Min, Max] if Count is 0.
		b.best, b.worst = 0, ^uint64(0)
		if s.Count > 0 && t.flip != 0 {
			b.best = ^numKey(t.dt, s.Max)
		}
	case s.Count == 0 && !nulls:
		b.empty, b.best = true, ^uint64(0)
	case t.flip == 0 && nulls, t.flip != 0 && s.Count == 0:
		b.best = t.flip // NULL: first ascending, last descending
	case t.flip == 0:
		b.best = numKey(t.dt, s.Min)
	default:
		b.best = ^numKey(t.dt, s.Max)
	}
	if s.Count+s.Nulls == elems {
		switch {
		case t.flip == 0 && s.Count > 0:
			b.worst = numKey(t.dt, s.Max)
		case t.flip == 0:
			b.worst = 0 // NULLs only
		case nulls:
			b.worst = ^uint64(0) // NULL, last descending
		default:
			b.worst = ^numKey(t.dt, s.Min)
		}
	}
	return b
}
