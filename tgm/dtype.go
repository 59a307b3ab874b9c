package tgm

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// dtypeInfo describes a Tensogram dtype: its stored element width, the
// array element type it is exposed as (Invalid when it has none), and the
// width of one byte-swapped unit (a component, for complex types).
type dtypeInfo struct {
	width int
	typ   array.DType
	unit  int
}

// dtypes are the dtypes of the wire format. bfloat16 is exposed as f32:
// it is the top half of a float32, so widening is exact. complex64,
// complex128 and bitmask have no element type to be exposed as.
var dtypes = map[string]dtypeInfo{
	"float16":    {2, array.F16, 2},
	"bfloat16":   {2, array.F32, 2},
	"float32":    {4, array.F32, 4},
	"float64":    {8, array.F64, 8},
	"int8":       {1, array.I8, 1},
	"int16":      {2, array.I16, 2},
	"int32":      {4, array.I32, 4},
	"int64":      {8, array.I64, 8},
	"uint8":      {1, array.U8, 1},
	"uint16":     {2, array.U16, 2},
	"uint32":     {4, array.U32, 4},
	"uint64":     {8, array.U64, 8},
	"complex64":  {8, array.Invalid, 4},
	"complex128": {16, array.Invalid, 8},
}

// Type is the element type Decode produces: the dtype's own (float16 as
// f16, integers as themselves), f32 for bfloat16 (widened exactly), and
// f64 for every simple_packing object (its values are computed in
// float64 whatever the dtype says). A dtype with no element type
// (complex64, complex128, bitmask, or one this reader does not know) is an
// error wrapping array.ErrUnsupported that names it.
func (o *Object) Type() (array.DType, error) {
	info, ok := dtypes[o.DType]
	switch {
	case o.DType == "bitmask":
		return array.Invalid, fmt.Errorf("dtype bitmask (packed bits) has no element type: %w", array.ErrUnsupported)
	case !ok:
		return array.Invalid, fmt.Errorf("unknown dtype %q: %w", o.DType, array.ErrUnsupported)
	case info.typ == array.Invalid:
		return array.Invalid, fmt.Errorf("dtype %s has no SQL mapping: %w", o.DType, array.ErrUnsupported)
	case o.Encoding == "simple_packing":
		return array.F64, nil
	}
	return info.typ, nil
}

// canonical NaN bit patterns written at masked positions, by exposed
// type (bfloat16 is widened to f32 first).
const (
	nan16 = 0x7E00
	nan32 = 0x7FC00000
	nan64 = 0x7FF8000000000000
	inf16 = 0x7C00
	inf32 = 0x7F800000
	inf64 = 0x7FF0000000000000
)
