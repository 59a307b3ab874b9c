package tetcore

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// DType is an element type, numbered by its wire tag in the dataset
// directory.
type DType uint32

// The dtype wire tags of layout v1.
const (
	F32 DType = 1
	F64 DType = 2
	I32 DType = 3
	I64 DType = 4
	U8  DType = 5
	U16 DType = 6
	I16 DType = 7
	U32 DType = 8
	F16 DType = 9
	U64 DType = 10
)

// AllDTypes lists every dtype in tag order.
var AllDTypes = []DType{F32, F64, I32, I64, U8, U16, I16, U32, F16, U64}

// Valid reports whether d is one of the ten v1 tags.
func (d DType) Valid() bool { return d >= F32 && d <= U64 }

// Size is the element size in bytes (0 for an invalid tag).
func (d DType) Size() int { return d.Array().Size() }

// String is the short name: f32, f64, i32, i64, u8, u16, i16, u32, f16, u64.
func (d DType) String() string {
	if !d.Valid() {
		return fmt.Sprintf("dtype(%d)", uint32(d))
	}
	return d.Array().String()
}

// IsFloat reports whether d is f16, f32 or f64.
func (d DType) IsFloat() bool { return d == F16 || d == F32 || d == F64 }

// ParseDType maps a short name such as "f32" back to its DType.
func ParseDType(s string) (DType, error) {
	if t, err := array.ParseDType(s); err == nil {
		if d, ok := DTypeOf(t); ok {
			return d, nil
		}
	}
	return 0, fmt.Errorf("tetcore: unknown dtype %q (want one of f32 f64 f16 i16 i32 i64 u8 u16 u32 u64)", s)
}

// Float64 returns element i of the little-endian payload b as float64
// (array.DType.Float64). b need not be aligned. Integers convert exactly
// up to 2^53.
func (d DType) Float64(b []byte, i int) float64 { return d.Array().Float64(b, i) }

// Int64 returns element i of an integer payload as int64
// (array.DType.Int64). A u64 above 2^63-1 wraps; use Uint64 for those.
// For float dtypes it truncates; an invalid tag panics.
func (d DType) Int64(b []byte, i int) int64 {
	if !d.Valid() {
		panic(fmt.Sprintf("tetcore: Int64 of invalid %v", d))
	}
	return d.Array().Int64(b, i)
}

// Uint64 returns element i of a u64 payload.
func (d DType) Uint64(b []byte, i int) uint64 { return d.Array().Uint64(b, i) }

// HalfToFloat32 converts IEEE 754 binary16 bits to float32 exactly,
// including subnormals, ±Inf and NaN (the payload is kept). It is
// array.HalfToFloat32, kept here for existing callers.
func HalfToFloat32(h uint16) float32 { return array.HalfToFloat32(h) }

// arrayDTypes maps the v1 wire tags onto the format-neutral types.
var arrayDTypes = [...]array.DType{F32: array.F32, F64: array.F64, I32: array.I32, I64: array.I64,
	U8: array.U8, U16: array.U16, I16: array.I16, U32: array.U32, F16: array.F16, U64: array.U64}

// Array is the format-neutral element type of d (array.Invalid for an
// invalid tag).
func (d DType) Array() array.DType {
	if !d.Valid() {
		return array.Invalid
	}
	return arrayDTypes[d]
}

// DTypeOf maps a format-neutral element type back to its v1 wire tag;
// ok is false for a type layout v1 cannot store (i8).
func DTypeOf(t array.DType) (d DType, ok bool) {
	for _, d := range AllDTypes {
		if arrayDTypes[d] == t {
			return d, true
		}
	}
	return 0, false
}

// Float32ToHalf converts a float32 to IEEE 754 binary16 bits, rounding to
// nearest even; overflow gives ±Inf and NaN stays NaN. It is
// array.Float32ToHalf, kept here for existing callers.
func Float32ToHalf(f float32) uint16 { return array.Float32ToHalf(f) }
