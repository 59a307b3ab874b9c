package fold

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// Box feeds the elements of the sub-box [lo, hi) of one chunk payload,
// grouped as by [FoldGroups] (stride, base). rowStride is the row-major
// stride of each axis in the whole array and rowBase the rowid of the
// chunk's first element, so that an element's rowid is rowBase +
// Σ_d rowStride[d]·i_d (chunk-local i_d).
func (p *Picker) Box(data []byte, extent, lo, hi, stride []int64, base int64, rowStride []int64, rowBase int64) error {
	var ax [MaxRank]axis
	_, _, empty, err := normalize(&ax, p.dt, data, extent, lo, hi, stride, base, len(p.groups))
	if err != nil || empty {
		return err
	}
	if len(extent) == 0 || len(rowStride) != len(extent) {
		return fmt.Errorf("%w: %d row strides for rank %d", ErrInvalid, len(rowStride), len(extent))
	}
	switch p.dt {
	case array.F16:
		pickBox[float32, float32](p, data, extent, lo, hi, stride, base, rowStride, rowBase, true)
	case array.F32:
		pickBox[float32, float32](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	case array.F64:
		pickBox[float64, float64](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	case array.I8:
		pickBox[int8, float32](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	case array.U8:
		pickBox[uint8, float32](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	case array.I16:
		pickBox[int16, float32](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	case array.U16:
		pickBox[uint16, float32](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	case array.I32:
		pickBox[int32, float64](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	case array.U32:
		pickBox[uint32, float64](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	case array.I64:
		pickBox[int64, float64](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	case array.U64:
		pickBox[uint64, float64](p, data, extent, lo, hi, stride, base, rowStride, rowBase, false)
	}
	if p.off != nil && !p.fits() {
		return fmt.Errorf("fold: a group holds more elements than its fold counted (the data changed between passes)")
	}
	return nil
}

// fits reports whether no group overflowed its slots (pickBox stops
// writing into a full group, which only a changed file can cause).
func (p *Picker) fits() bool {
	for g := range p.fill {
		if p.fill[g] > p.off[g+1] {
			return false
		}
	}
	return true
}

// pickBox walks the box row by row (the last axis inside, contiguous in
// the payload) and feeds every element to the Picker. T is the payload's
// element type (float32 with f16 set), G the gathered type.
func pickBox[T elem, G float32 | float64](p *Picker, data []byte, extent, lo, hi, stride []int64, base int64, rowStride []int64, rowBase int64, f16 bool) {
	vals, ok := any(p.f32).([]G)
	if !ok {
		vals, _ = any(p.f64).([]G)
	}
	mins, _ := p.mins.([]T)
	maxs, _ := p.maxs.([]T)
	r := len(extent)
	var idx [MaxRank]int64
	copy(idx[:r], lo)
	var buf [gatherLen]T
	last := r - 1
	gs := int64(0)
	if stride != nil {
		gs = stride[last]
	}
	for {
		off, g, rid := int64(0), base, rowBase
		ps := int64(1)
		for d := last; d >= 0; d-- {
			off += idx[d] * ps
			ps *= extent[d]
			rid += idx[d] * rowStride[d]
			if stride != nil {
				g += stride[d] * (idx[d] - lo[d])
			}
		}
		bl := blocks[T]{data: data, off: int(off), step: 1, n: int(hi[last] - lo[last]), span: floatBlockLen, f16: f16, buf: &buf}
		rs := rowStride[last]
		for xs := bl.next(); xs != nil; xs = bl.next() {
			if gs == 0 { // the whole block goes to one group: tight loops
				if vals != nil {
					gatherRow(p, vals, xs, g)
				}
				if mins != nil {
					firstEqual(xs, mins[g], rid, rs, &p.argMin[g])
				}
				if maxs != nil {
					firstEqual(xs, maxs[g], rid, rs, &p.argMax[g])
				}
				rid += rs * int64(len(xs))
				continue
			}
			for _, x := range xs {
				if x == x { // NaN is skipped
					if vals != nil {
						if p.fill[g] < p.off[g+1] {
							vals[p.fill[g]] = G(x)
						}
						p.fill[g]++ // an overflow is counted: Box reports it
					}
					if mins != nil && x == mins[g] && rid < p.argMin[g] {
						p.argMin[g] = rid
					}
					if maxs != nil && x == maxs[g] && rid < p.argMax[g] {
						p.argMax[g] = rid
					}
				}
				g += gs
				rid += rs
			}
		}
		// Advance the odometer over every axis but the last.
		d := last - 1
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < hi[d] {
				break
			}
			idx[d] = lo[d]
		}
		if d < 0 {
			return
		}
	}
}

// gatherRow gathers the non-NaN elements of xs into group g.
func gatherRow[T elem, G float32 | float64](p *Picker, vals []G, xs []T, g int64) {
	f, end := p.fill[g], p.off[g+1]
	for _, x := range xs {
		if x == x {
			if f < end {
				vals[f] = G(x)
			}
			f++ // an overflow is counted: Box reports it
		}
	}
	p.fill[g] = f
}

// firstEqual lowers *best to the rowid of the first element of xs equal
// to target (element i has rowid rid + i·rs), if there is one and it is
// lower. A block starting at or after *best cannot lower it.
func firstEqual[T elem](xs []T, target T, rid, rs int64, best *int64) {
	if rid >= *best {
		return
	}
	for i, x := range xs {
		if x == target {
			*best = min(*best, rid+int64(i)*rs)
			return
		}
	}
}
