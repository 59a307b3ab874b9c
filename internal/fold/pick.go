package fold

import (
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

// Values are the non-NaN elements gathered for group g (one of the two
// slices, by the dtype; nil when the Picker does not gather), in no
// particular order once Quantile has run. They belong to the Picker.
func (p *Picker) Values(g int) ([]float32, []float64) {
	if p.off == nil || g < 0 || g >= len(p.groups) {
		return nil, nil
	}
	lo, hi := p.off[g], min(p.fill[g], p.off[g+1])
	if p.f32 != nil {
		return p.f32[lo:hi], nil
	}
	return nil, p.f64[lo:hi]
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
