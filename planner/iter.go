package planner

// Chunk describes the chunk an [Iter] is positioned on. Its slices have one
// entry per axis, belong to the iterator and are overwritten by the next
// call to Next, NextSkip or Reset: copy what you keep.
type Chunk struct {
	// Ordinal is the chunk's position among the plan's candidate chunks
	// (row-major over [Plan.ChunkRange]), 0-based.
	Ordinal int64
	// ID is the linear chunk id, row-major over the whole chunk grid.
	ID int64
	// Coords are the chunk-grid coordinates.
	Coords []int64
	// Start and Extent give the chunk's global position and its
	// edge-trimmed size: the payload holds Π Extent elements, row-major.
	Start, Extent []int64
	// Lo and Hi bound the selected sub-box in chunk-local coordinates,
	// 0 ≤ Lo[d] < Hi[d] ≤ Extent[d], half-open.
	Lo, Hi []int64
	// Selected is the exact number of selected elements in the chunk: the
	// sub-box size, or, with a rowid filter, the elements of the sub-box
	// inside the rowid range. The iterator never yields a chunk with
	// Selected == 0.
	Selected int64
}

// Iter walks a plan's chunks in chunk-grid row-major order without
// materialising a list: planning and iteration cost O(rank) per chunk and
// allocate nothing once the Iter exists. An Iter must not be copied and is
// not safe for concurrent use; the plan must not be Reset while iterating.
type Iter struct {
	p       *Plan
	t       int64 // ordinal of the current chunk
	started bool
	coords  [MaxRank]int64
	start   [MaxRank]int64
	extent  [MaxRank]int64
	lo, hi  [MaxRank]int64 // chunk-local selected sub-box
	chunk   Chunk
}

// Iter returns a new iterator over p's chunks; see [Iter.Reset].
func (p *Plan) Iter() *Iter {
	it := new(Iter)
	it.Reset(p)
	return it
}

// Reset positions it before the first chunk of p, reusing its memory.
func (it *Iter) Reset(p *Plan) {
	it.p, it.started, it.t = p, false, 0
	r := p.rank
	it.chunk = Chunk{
		Coords: it.coords[:r],
		Start:  it.start[:r],
		Extent: it.extent[:r],
		Lo:     it.lo[:r],
		Hi:     it.hi[:r],
	}
}

// Chunk returns the current chunk; valid after Next or NextSkip returned
// true, until the next call to either.
func (it *Iter) Chunk() *Chunk { return &it.chunk }

// Next advances to the next chunk with at least one selected element and
// reports whether there is one. With a rowid filter it may step over
// candidate chunks whose min/max rowids overlap the range but that hold no
// selected element (O(rank) each, nothing to decode); without one every
// candidate has selected elements.
func (it *Iter) Next() bool {
	p := it.p
	if p == nil || p.Empty() {
		return false
	}
	for {
		if !it.started {
			it.seek(p.tStart)
		} else {
			if it.t >= p.tEnd {
				return false
			}
			it.t++
			it.step()
		}
		if it.t >= p.tEnd {
			return false
		}
		if it.fill() > 0 {
			return true
		}
	}
}

// seek positions the odometer on candidate ordinal t (t may equal tEnd).
func (it *Iter) seek(t int64) {
	it.started, it.t = true, t
	if t < it.p.tEnd {
		it.p.chunkAt(t, &it.coords)
	}
}

// step advances the grid coordinates by one candidate, odometer style.
func (it *Iter) step() {
	p := it.p
	for d := p.rank - 1; d >= 0; d-- {
		it.coords[d]++
		if it.coords[d] < p.chi[d] {
			return
		}
		it.coords[d] = p.clo[d]
	}
}

// fill computes the current chunk's fields and returns its Selected count.
func (it *Iter) fill() int64 {
	p, g := it.p, it.p.g
	var id int64
	var glo, ghi [MaxRank]int64
	sel := int64(1)
	for d := range p.rank {
		c := it.coords[d]
		s, e := chunkSpan(c, g.chunk[d], g.shape[d])
		glo[d], ghi[d] = max(s, p.lo[d]), min(e, p.hi[d])
		it.start[d], it.extent[d] = s, e-s
		it.lo[d], it.hi[d] = glo[d]-s, ghi[d]-s
		sel *= ghi[d] - glo[d]
		id += c * g.gstride[d]
	}
	if p.rowFilter {
		sel = p.countRange(&glo, &ghi)
	}
	it.chunk.Ordinal, it.chunk.ID, it.chunk.Selected = it.t, id, sel
	return sel
}
