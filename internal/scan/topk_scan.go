package scan

import (
	"encoding/binary"
	"math"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
)

// The element walk of a TopK: every selected element of one chunk is
// turned into its key and offered to the heap.

// scanBox offers the selected elements of t.box, whose decoded elements
// are data.
func (t *TopK) scanBox(data []byte) {
	t.forRuns(&t.box, func(off, row, m int64) { t.run(data, off, row, m) })
}

// forRuns calls fn with each run of selected elements of box b: m
// elements from element off of the chunk, of rowids from row. Runs go
// along the last axis, or across several trailing axes when the chunk
// spans them whole and the selection takes them whole (then elements and
// rowids are both consecutive), as a chunk of whole maps of a
// (time, lat, lon) cube is one run. It reads only fields of t that do
// not change during a page (worker goroutines call it).
func (t *TopK) forRuns(b *topBox, fn func(off, row, m int64)) {
	last := t.rank - 1
	var cstr [planner.MaxRank]int64
	s := int64(1)
	for a := last; a >= 0; a-- {
		cstr[a] = s
		s *= b.extent[a]
	}
	// The run's axis r: axes after it are whole in the chunk, the
	// selection and the array (extent = shape: gstr[a-1] = extent·gstr[a]).
	r := last
	for r > 0 && b.lo[r] == 0 && b.hi[r] == b.extent[r] && b.extent[r]*t.gstr[r] == t.gstr[r-1] {
		r--
	}
	var idx [planner.MaxRank]int64
	copy(idx[:t.rank], b.lo[:t.rank])
	m := (b.hi[r] - b.lo[r]) * cstr[r]
	for {
		var off, row int64
		for a := 0; a <= r; a++ {
			off += idx[a] * cstr[a]
			row += (b.start[a] + idx[a]) * t.gstr[a]
		}
		r0, r1 := row, row+m
		if t.rowsel {
			r0, r1 = max(r0, t.rlo), min(r1, t.rhi)
		}
		if r0 < r1 {
			fn(off+r0-row, r0, r1-r0)
		}
		a := r - 1
		for ; a >= 0; a-- {
			if idx[a]++; idx[a] < b.hi[a] {
				break
			}
			idx[a] = b.lo[a]
		}
		if a < 0 {
			return
		}
	}
}

// topRun is the most keys encoded at once.
const topRun = 8192

// run offers the m contiguous elements starting at element off of data,
// whose first rowid is row.
func (t *TopK) run(data []byte, off, row, m int64) {
	if cap(t.keys) < topRun {
		t.keys = make([]uint64, topRun)
	}
	if t.dt == array.F32 || t.dt == array.F64 {
		t.runFloat(data, off, row, m)
		return
	}
	for m > 0 {
		n := min(m, topRun)
		keys := t.keys[:n]
		encodeKeys(t.dt, data, off, keys, t.flip)
		t.offer(keys, row, data, off)
		off, row, m = off+n, row+n, m-n
	}
}

// offer offers keys, of consecutive rowids from row (elements from off
// of data), to the heap, which keeps the t.n smallest (key, rowid) pairs
// with the largest on top.
func (t *TopK) offer(keys []uint64, row int64, data []byte, off int64) {
	h := t.heap
	i := 0
	for ; i < len(keys) && len(h) < t.n; i++ {
		if t.before(keys[i], row+int64(i)) || t.noNull && keys[i] == t.null {
			continue
		}
		h = append(h, t.entry(keys[i], row+int64(i), data, off+int64(i)))
		siftUp(h, len(h)-1)
	}
	if i < len(keys) {
		top := h[0]
		for ; i < len(keys); i++ {
			k := keys[i]
			if k > top.k || k == top.k && row+int64(i) > top.row || t.before(k, row+int64(i)) || t.noNull && k == t.null {
				continue
			}
			h[0] = t.entry(k, row+int64(i), data, off+int64(i))
			siftDown(h)
			top = h[0]
		}
	}
	t.heap = h
}

// entry is the heap entry of an element entering the heap: a float zero
// keeps its sign (-0 and +0 tie in SQL, but the cells table emits -0).
func (t *TopK) entry(k uint64, row int64, data []byte, i int64) topEntry {
	e := topEntry{k: k, row: row}
	if k == t.zero && t.dt.IsFloat() {
		switch t.dt {
		case array.F16:
			e.neg = data[2*i+1] == 0x80
		case array.F32:
			e.neg = data[4*i+3] == 0x80
		default:
			e.neg = data[8*i+7] == 0x80
		}
	}
	return e
}

// runFloat is run for f32 and f64 elements: once the heap is full, the
// elements that compare worse than the heap's worst value as floats are
// skipped by a vector search (fold.FindF32, fold.FindF64), and only the
// few others have their key formed and offered.
func (t *TopK) runFloat(data []byte, off, row, m int64) {
	le := binary.LittleEndian
	f32 := t.dt == array.F32
	load := func(i int64) float64 {
		if f32 {
			return float64(math.Float32frombits(le.Uint32(data[4*i:])))
		}
		return math.Float64frombits(le.Uint64(data[8*i:]))
	}
	i := int64(0)
	for ; i < m && len(t.heap) < t.n; i++ {
		if k := floatKey(load(off+i)) ^ t.flip; !t.before(k, row+i) && !(t.noNull && k == t.null) {
			t.heap = append(t.heap, t.entry(k, row+i, data, off+i))
			siftUp(t.heap, len(t.heap)-1)
		}
	}
	if i == m {
		return
	}
	// The search is exact for every non-NULL worst (see cand). Elements
	// equal to the worst, and rows already served, are settled by keys.
	c := t.cand()
	h := t.heap
	thr, fast := t.worstFloat()
	for i < m {
		if fast {
			if f32 {
				i += int64(fold.FindF32(data, int(off+i), int(m-i), c, float32(thr)))
			} else {
				i += int64(fold.FindF64(data, int(off+i), int(m-i), c, thr))
			}
			if i == m {
				return
			}
		}
		k := floatKey(load(off+i)) ^ t.flip
		if top := h[0]; !(k > top.k || k == top.k && row+i > top.row || t.before(k, row+i) || t.noNull && k == t.null) {
			h[0] = t.entry(k, row+i, data, off+i)
			siftDown(h)
			thr, fast = t.worstFloat()
		}
		i++
	}
}

// worstFloat is the value of the heap's worst entry as a float, and
// false when it is NULL (no quick rejection then).
func (t *TopK) worstFloat() (float64, bool) {
	v, null := keyValue(t.dt, t.heap[0].k^t.flip)
	return v.F, !null
}

// before reports whether (k, row) sorts at or before the last row of the
// previous page: rows already served.
func (t *TopK) before(k uint64, row int64) bool {
	return t.resume && (k < t.after.k || k == t.after.k && row <= t.after.row)
}

// worse orders heap entries: a sorts after b.
func worse(a, b topEntry) bool { return a.k > b.k || a.k == b.k && a.row > b.row }

func siftUp(h []topEntry, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func siftDown(h []topEntry) {
	i, n := 0, len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && worse(h[r], h[l]) {
			c = r
		}
		if !worse(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
