package scan

import (
	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/planner"
)

// Span is a half-open run of selected global indices along one axis.
type Span struct{ Lo, Hi int64 }

// AxisSel is the exact selection along one axis of an aggregate: sorted,
// disjoint runs, with the position of each run's start in the compact
// numbering of the selected indices (used to number groups).
type AxisSel struct {
	Runs []Span
	pos  []int64
	N    int64 // selected indices in all
}

// Add appends the run [lo, hi), which must lie after every run so far.
func (s *AxisSel) Add(lo, hi int64) {
	if k := len(s.Runs); k > 0 && s.Runs[k-1].Hi == lo {
		s.Runs[k-1].Hi = hi
		s.N += hi - lo
		return
	}
	s.Runs = append(s.Runs, Span{lo, hi})
	s.pos = append(s.pos, s.N)
	s.N += hi - lo
}

// Compact returns the compact position of global index g inside run i.
func (s *AxisSel) Compact(i int, g int64) int64 { return s.pos[i] + g - s.Runs[i].Lo }

// The chunks an aggregate folds: exactly those that hold selected
// elements, found from the exact axis selections rather than the plan's
// box (an IN list's hull may span a whole axis of which three indices
// are selected), and enumerated without walking the grid.

// ChunkSpan is a run of chunk-grid indices along one axis, inclusive.
type ChunkSpan struct{ Lo, Hi int64 }

// ChunkSpans returns, per axis, the runs of grid indices of the chunks
// that hold selected indices, and how many chunks they make in all
// (saturated at MaxInt64). The runs take memory in proportion to the
// selection's runs, not to the grid.
func ChunkSpans(sel []AxisSel, chunk []int64) ([][]ChunkSpan, int64) {
	out := make([][]ChunkSpan, len(sel))
	total := int64(1)
	for d := range sel {
		var spans []ChunkSpan
		n := int64(0)
		for _, r := range sel[d].Runs {
			lo, hi := r.Lo/chunk[d], (r.Hi-1)/chunk[d]
			if k := len(spans); k > 0 && spans[k-1].Hi >= lo-1 {
				if hi > spans[k-1].Hi {
					n += hi - spans[k-1].Hi
					spans[k-1].Hi = hi
				}
				continue
			}
			spans = append(spans, ChunkSpan{lo, hi})
			n += hi - lo + 1
		}
		out[d] = spans
		total = MulBytes(total, n)
	}
	return out, total
}

// eachChunk calls fn with the grid coordinates of every chunk the spans
// make, in row-major order, until fn returns false.
func eachChunk(spans [][]ChunkSpan, fn func(coords []int64) bool) {
	r := len(spans)
	for _, s := range spans {
		if len(s) == 0 {
			return
		}
	}
	var coords [planner.MaxRank]int64
	var idx [planner.MaxRank]int
	for d := 0; d < r; d++ {
		coords[d] = spans[d][0].Lo
	}
	for {
		if !fn(coords[:r]) {
			return
		}
		d := r - 1
		for ; d >= 0; d-- {
			if coords[d] < spans[d][idx[d]].Hi {
				coords[d]++
				break
			}
			if idx[d]+1 < len(spans[d]) {
				idx[d]++
				coords[d] = spans[d][idx[d]].Lo
				break
			}
			idx[d], coords[d] = 0, spans[d][0].Lo
		}
		if d < 0 {
			return
		}
	}
}

// linear is the row-major id of the chunk at grid coordinates coords.
func linear(in *array.Info, coords []int64) int64 {
	grid := in.Grid()
	id := int64(0)
	for a, c := range coords {
		id = id*grid[a] + c
	}
	return id
}

// chunkIDs returns the ids of the chunks the spans make; n is their
// number, which the caller's budget has sized.
func chunkIDs(in *array.Info, spans [][]ChunkSpan, n int64) []int64 {
	ids := make([]int64, 0, n)
	eachChunk(spans, func(coords []int64) bool {
		ids = append(ids, linear(in, coords))
		return true
	})
	return ids
}

// FirstMissing returns the missing-chunk error of the first chunk of the
// spans the file does not store, or nil. Callers call it only when the
// spans make more chunks than the file stores, and it stops at the first
// absent one, so it looks at most one chunk more than the file stores.
func (r *Reader) FirstMissing(spans [][]ChunkSpan) error {
	in := r.a.Info()
	var err error
	eachChunk(spans, func(coords []int64) bool {
		if id := linear(in, coords); !r.a.has(id) {
			err = r.errorf(id, "%w", array.ErrMissingChunk)
			return false
		}
		return true
	})
	return err
}

func (a *Array) has(id int64) bool {
	_, ok := a.Chunk(id)
	return ok
}
