package vtab

import (
	"fmt"

	"github.com/tetsql/tetsql/planner"
	"github.com/tetsql/tetsql/tetcore"
)

// The chunks an aggregate folds: exactly those that hold selected
// elements, found from the exact axis selections rather than the plan's
// box (an IN list's hull may span a whole axis of which three indices
// are selected), and enumerated without walking the grid.

// chunkSpan is a run of chunk-grid indices along one axis, inclusive.
type chunkSpan struct{ lo, hi int64 }

// chunkSpans returns, per axis, the runs of grid indices of the chunks
// that hold selected indices, and how many chunks they make in all
// (saturated at MaxInt64). The runs take memory in proportion to the
// selection's runs, not to the grid.
func chunkSpans(sel []axisSel, chunk []int64) ([][]chunkSpan, int64) {
	out := make([][]chunkSpan, len(sel))
	total := int64(1)
	for d := range sel {
		var spans []chunkSpan
		n := int64(0)
		for _, r := range sel[d].runs {
			lo, hi := r.lo/chunk[d], (r.hi-1)/chunk[d]
			if k := len(spans); k > 0 && spans[k-1].hi >= lo-1 {
				if hi > spans[k-1].hi {
					n += hi - spans[k-1].hi
					spans[k-1].hi = hi
				}
				continue
			}
			spans = append(spans, chunkSpan{lo, hi})
			n += hi - lo + 1
		}
		out[d] = spans
		total = mulBytes(total, n)
	}
	return out, total
}

// eachChunk calls fn with the grid coordinates of every chunk the spans
// make, in row-major order, until fn returns false.
func eachChunk(spans [][]chunkSpan, fn func(coords []int64) bool) {
	r := len(spans)
	for _, s := range spans {
		if len(s) == 0 {
			return
		}
	}
	var coords [planner.MaxRank]int64
	var idx [planner.MaxRank]int
	for d := 0; d < r; d++ {
		coords[d] = spans[d][0].lo
	}
	for {
		if !fn(coords[:r]) {
			return
		}
		d := r - 1
		for ; d >= 0; d-- {
			if coords[d] < spans[d][idx[d]].hi {
				coords[d]++
				break
			}
			if idx[d]+1 < len(spans[d]) {
				idx[d]++
				coords[d] = spans[d][idx[d]].lo
				break
			}
			idx[d], coords[d] = 0, spans[d][0].lo
		}
		if d < 0 {
			return
		}
	}
}

// chunkIDs returns the linear ids of the chunks the spans make; n is
// their number, which reserve has sized.
func chunkIDs(ds *tetcore.Dataset, spans [][]chunkSpan, n int64) []int64 {
	ids := make([]int64, 0, n)
	eachChunk(spans, func(coords []int64) bool {
		ids = append(ids, ds.LinearChunk(coords))
		return true
	})
	return ids
}

// firstMissing returns the missing-chunk error of the first chunk of the
// spans absent from the index, or nil. It is called only when the spans
// make more chunks than the index holds, and stops at the first absent
// one, so it looks at most one chunk more than the index holds.
func (c *aggCursor) firstMissing(spans [][]chunkSpan) error {
	ds := c.t.ds
	var err error
	eachChunk(spans, func(coords []int64) bool {
		if _, ok := ds.Chunk(ds.LinearChunk(coords)); !ok {
			err = fmt.Errorf("tet: %s: dataset %q chunk %v: %w", c.t.qualified, ds.Name, coords, tetcore.ErrMissingChunk)
			return false
		}
		return true
	})
	return err
}
