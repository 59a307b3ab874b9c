package fold

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// Elems feeds len(rids) elements of group g, packed in data (the
// Picker's dtype, one after the other), element i having rowid rids[i].
// It is how a caller that filters elements (by value terms) feeds the
// ones that pass, which no longer form a box: their rowids travel with
// them. It reports the same overflow as [Picker.Box].
func (p *Picker) Elems(g int64, data []byte, rids []int64) error {
	if g < 0 || g >= int64(len(p.groups)) {
		return fmt.Errorf("%w: group %d of %d", ErrInvalid, g, len(p.groups))
	}
	if need := len(rids) * p.dt.Size(); len(data) < need {
		return fmt.Errorf("%w: %d bytes for %d elements", ErrInvalid, len(data), len(rids))
	}
	switch p.dt {
	case array.F16:
		pickElems[float32, float32](p, data, rids, g, true)
	case array.F32:
		pickElems[float32, float32](p, data, rids, g, false)
	case array.F64:
		pickElems[float64, float64](p, data, rids, g, false)
	case array.I8:
		pickElems[int8, float32](p, data, rids, g, false)
	case array.U8:
		pickElems[uint8, float32](p, data, rids, g, false)
	case array.I16:
		pickElems[int16, float32](p, data, rids, g, false)
	case array.U16:
		pickElems[uint16, float32](p, data, rids, g, false)
	case array.I32:
		pickElems[int32, float64](p, data, rids, g, false)
	case array.U32:
		pickElems[uint32, float64](p, data, rids, g, false)
	case array.I64:
		pickElems[int64, float64](p, data, rids, g, false)
	case array.U64:
		pickElems[uint64, float64](p, data, rids, g, false)
	default:
		return fmt.Errorf("%w: dtype %v", ErrInvalid, p.dt)
	}
	if p.off != nil && !p.fits() {
		return fmt.Errorf("fold: a group holds more elements than its fold counted (the data changed between passes)")
	}
	return nil
}

// pickElems feeds the packed elements of group g to the Picker (T the
// payload's element type, float32 with f16 set; G the gathered type).
func pickElems[T elem, G float32 | float64](p *Picker, data []byte, rids []int64, g int64, f16 bool) {
	vals, ok := any(p.f32).([]G)
	if !ok {
		vals, _ = any(p.f64).([]G)
	}
	mins, _ := p.mins.([]T)
	maxs, _ := p.maxs.([]T)
	var buf [gatherLen]T
	bl := blocks[T]{data: data, step: 1, n: len(rids), span: floatBlockLen, f16: f16, buf: &buf}
	i := 0
	for xs := bl.next(); xs != nil; xs = bl.next() {
		if vals != nil {
			gatherRow(p, vals, xs, g)
		}
		for j, x := range xs {
			rid := rids[i+j]
			if mins != nil && x == mins[g] && rid < p.argMin[g] {
				p.argMin[g] = rid
			}
			if maxs != nil && x == maxs[g] && rid < p.argMax[g] {
				p.argMax[g] = rid
			}
		}
		i += len(xs)
	}
}
