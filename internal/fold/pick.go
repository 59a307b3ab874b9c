package fold

import (
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
)

// Picker is the second pass of an aggregate that needs more than a fold:
// it gathers the non-NaN elements of every group (for [Picker.Quantile])
// and finds the first element equal to each group's minimum and maximum
// (argmin, argmax), given the groups a fold of the same selection gave.
// Its memory is known before it is made ([PickBytes]), since the fold
// counted every group's elements.
//
// Elements are gathered as float32 where that is exact (f16, f32 and
// integers of up to 16 bits) and as float64 otherwise; 32-bit integers
// are exact in float64, and 64-bit ones are rounded by a monotone map, so
// their order statistics are the rounded order statistics of the exact
// values (interpolation is in float64, as in DuckDB).
//
// A Picker is not safe for concurrent use: one goroutine feeds it.
type Picker struct {
	dt     array.DType
	groups []Stats
	f32    []float32
	f64    []float64
	off    []int64 // group g's elements are at [off[g], off[g+1])
	fill   []int64 // next free slot per group
	mins   any     // []T per group: the minimum to find, for argmin
	maxs   any     // likewise for argmax
	argMin []int64 // first rowid equal to the minimum, MaxInt64 if none
	argMax []int64
}

// narrow reports whether dt's elements are gathered as float32.
func narrow(dt array.DType) bool {
	switch dt {
	case array.F16, array.F32, array.I8, array.U8, array.I16, array.U16:
		return true
	}
	return false
}

// elemSize is the bytes of one element of dt in memory (f16 as float32).
func elemSize(dt array.DType) int64 {
	if dt == array.F16 {
		return 4
	}
	return int64(dt.Size())
}

// PickSizes are the bytes a Picker over elements of dt needs: per
// gathered element (value), and per group for each of argmin and argmax
// (arg); gathering also keeps 16 bytes per group.
func PickSizes(dt array.DType) (value, arg int64) {
	value = 8
	if narrow(dt) {
		value = 4
	}
	return value, 8 + elemSize(dt)
}

// NewPicker makes a Picker for groups (a fold's result over the same
// selection the Picker is then fed).
func NewPicker(dt array.DType, groups []Stats, gather, argMin, argMax bool) *Picker {
	p := &Picker{dt: dt, groups: groups}
	if gather {
		p.off, p.fill = make([]int64, len(groups)+1), make([]int64, len(groups))
		for g := range groups {
			p.fill[g] = p.off[g]
			p.off[g+1] = p.off[g] + groups[g].count
		}
		if narrow(dt) {
			p.f32 = make([]float32, p.off[len(groups)])
		} else {
			p.f64 = make([]float64, p.off[len(groups)])
		}
	}
	if argMin {
		p.argMin, p.mins = newArg(len(groups)), targets(dt, groups, true)
	}
	if argMax {
		p.argMax, p.maxs = newArg(len(groups)), targets(dt, groups, false)
	}
	return p
}

func newArg(n int) []int64 {
	a := make([]int64, n)
	for i := range a {
		a[i] = math.MaxInt64
	}
	return a
}

// targets returns each group's minimum (or maximum) as a []T of dt's
// element type (float32 for f16), which holds it exactly.
func targets(dt array.DType, groups []Stats, low bool) any {
	switch dt {
	case array.F16, array.F32:
		return floatTargets[float32](groups, low)
	case array.F64:
		return floatTargets[float64](groups, low)
	case array.I8:
		return intTargets[int8](groups, low)
	case array.U8:
		return intTargets[uint8](groups, low)
	case array.I16:
		return intTargets[int16](groups, low)
	case array.U16:
		return intTargets[uint16](groups, low)
	case array.I32:
		return intTargets[int32](groups, low)
	case array.U32:
		return intTargets[uint32](groups, low)
	case array.I64:
		return intTargets[int64](groups, low)
	}
	return intTargets[uint64](groups, low)
}

func floatTargets[T float32 | float64](groups []Stats, low bool) []T {
	out := make([]T, len(groups))
	for g := range groups {
		v := groups[g].max
		if low {
			v = groups[g].min
		}
		out[g] = T(v)
	}
	return out
}

func intTargets[T int8 | uint8 | uint16 | int16 | uint32 | int32 | uint64 | int64](groups []Stats, low bool) []T {
	out := make([]T, len(groups))
	for g := range groups {
		v := groups[g].imax
		if low {
			v = groups[g].imin
		}
		// The extreme is an element of the group, so it fits in T:
		// its low bits are T's two's complement.
		out[g] = T(v.Lo)
	}
	return out
}

// Quantile is the q-quantile of group g's non-NaN elements (see
// [Quantile]); ok is false when the group has none, the result is
// undefined, or the Picker does not gather.
func (p *Picker) Quantile(g int, q float64) (float64, bool) {
	if p.off == nil || g < 0 || g >= len(p.groups) {
		return 0, false
	}
	lo, hi := p.off[g], min(p.fill[g], p.off[g+1])
	if p.f32 != nil {
		return Quantile(p.f32[lo:hi], q)
	}
	return Quantile(p.f64[lo:hi], q)
}

// Complete reports whether every group received as many elements as the
// fold counted (it did not if the data changed between the passes).
func (p *Picker) Complete() bool {
	for g := range p.fill {
		if p.fill[g] != p.off[g+1] {
			return false
		}
	}
	return true
}

// ArgMin is the smallest rowid of an element of group g equal to its
// minimum; ok is false when there is none.
func (p *Picker) ArgMin(g int) (int64, bool) { return arg(p.argMin, g) }

// ArgMax is the smallest rowid of an element of group g equal to its
// maximum; ok is false when there is none.
func (p *Picker) ArgMax(g int) (int64, bool) { return arg(p.argMax, g) }

func arg(a []int64, g int) (int64, bool) {
	if g < 0 || g >= len(a) || a[g] == math.MaxInt64 {
		return 0, false
	}
	return a[g], true
}

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
