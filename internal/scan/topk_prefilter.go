package scan

import (
	"encoding/binary"
	"math"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

// Prefiltered chunks of a TopK's bounded pass. The chunks a batch reads
// ahead (topk_parallel.go) are also searched for candidates on their
// worker goroutines, against the heap's worst value when the batch
// started: the heap only improves, so an element that fails against that
// value fails at its turn too, and the calling goroutine offers only the
// candidates, in the order of a serial pass, with the same result. Float
// dtypes (f32, f64) only, and only with a full heap whose worst is not
// NULL.

// topCand is a candidate: its element in the chunk and its rowid.
type topCand struct{ off, row int64 }

// maxTopCands bounds the candidates kept for one chunk; beyond, the
// chunk is scanned whole on the calling goroutine as before.
const maxTopCands = 1 << 14

// topFilter is the threshold a batch's workers search against.
type topFilter struct {
	on  bool
	f32 bool
	c   fold.Cand
	thr float64
}

// filter is the candidate test of the heap as it stands; off when the
// dtype, or a heap not full or with a NULL worst, allows none.
func (t *TopK) filter() topFilter {
	if t.dt != array.F32 && t.dt != array.F64 || len(t.heap) < t.n {
		return topFilter{}
	}
	thr, ok := t.worstFloat()
	if !ok {
		return topFilter{}
	}
	return topFilter{on: true, f32: t.dt == array.F32, c: t.cand(), thr: thr}
}

// cand is the candidate test of the top-k's direction: DESC keeps
// v ≥ worst (NaN fails), ASC v ≤ worst, or NaN (NULL sorts first) unless
// NULLs are left out.
func (t *TopK) cand() fold.Cand {
	switch {
	case t.flip != 0:
		return fold.CandGE
	case t.noNull:
		return fold.CandLE
	}
	return fold.CandLENaN
}

// prefilter keeps in s.cands the elements of box b of s.ch that pass f,
// in scan order; s.filtered is false when there are too many (or f is
// off): the chunk is then scanned whole.
func (s *topSlot) prefilter(t *TopK, b *topBox, f topFilter) {
	s.cands, s.filtered = s.cands[:0], f.on
	if !f.on {
		return
	}
	data := s.ch.Data
	t.forRuns(b, func(off, row, m int64) {
		for i := int64(0); i < m && s.filtered; i++ {
			if f.f32 {
				i += int64(fold.FindF32(data, int(off+i), int(m-i), f.c, float32(f.thr)))
			} else {
				i += int64(fold.FindF64(data, int(off+i), int(m-i), f.c, f.thr))
			}
			if i == m {
				return
			}
			if len(s.cands) == maxTopCands {
				s.filtered = false
				return
			}
			s.cands = append(s.cands, topCand{off + i, row + i})
		}
	})
}

// offerCands offers the candidates of a prefiltered chunk, whose
// elements are data, to the heap (full since the filter was taken).
func (t *TopK) offerCands(data []byte, cands []topCand) {
	le := binary.LittleEndian
	h := t.heap
	for _, c := range cands {
		var v float64
		if t.dt == array.F32 {
			v = float64(math.Float32frombits(le.Uint32(data[4*c.off:])))
		} else {
			v = math.Float64frombits(le.Uint64(data[8*c.off:]))
		}
		k := floatKey(v) ^ t.flip
		if top := h[0]; k > top.k || k == top.k && c.row > top.row || t.before(k, c.row) || t.noNull && k == t.null {
			continue
		}
		h[0] = t.entry(k, c.row, data, c.off)
		siftDown(h)
	}
}
