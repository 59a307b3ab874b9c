package array

import (
	"encoding/binary"
	"fmt"
	"math"
)

// DType is an element type. Elements are stored little-endian.
type DType uint8

// The element types. A format maps its own type tags onto these and
// refuses (ErrUnsupported) what has no counterpart.
const (
	Invalid DType = iota
	I8
	I16
	I32
	I64
	U8
	U16
	U32
	U64
	F16 // IEEE 754 binary16
	F32
	F64
)

var dtypeNames = [...]string{I8: "i8", I16: "i16", I32: "i32", I64: "i64", U8: "u8", U16: "u16",
	U32: "u32", U64: "u64", F16: "f16", F32: "f32", F64: "f64"}

var dtypeSizes = [...]int{I8: 1, I16: 2, I32: 4, I64: 8, U8: 1, U16: 2, U32: 4, U64: 8, F16: 2, F32: 4, F64: 8}

// Valid reports whether d is one of the element types.
func (d DType) Valid() bool { return d >= I8 && d <= F64 }

// Size is the element size in bytes (0 for an invalid type).
func (d DType) Size() int {
	if !d.Valid() {
		return 0
	}
	return dtypeSizes[d]
}

// String is the short name: i8 … i64, u8 … u64, f16, f32, f64.
func (d DType) String() string {
	if !d.Valid() {
		return fmt.Sprintf("dtype(%d)", uint8(d))
	}
	return dtypeNames[d]
}

// IsFloat reports whether d is f16, f32 or f64.
func (d DType) IsFloat() bool { return d == F16 || d == F32 || d == F64 }

// IsSigned reports whether d is a signed integer type.
func (d DType) IsSigned() bool { return d >= I8 && d <= I64 }

// ParseDType maps a short name such as "f32" back to its DType.
func ParseDType(s string) (DType, error) {
	for d := I8; d <= F64; d++ {
		if dtypeNames[d] == s {
			return d, nil
		}
	}
	return Invalid, fmt.Errorf("array: unknown dtype %q", s)
}

// Float64 returns element i of the little-endian elements b as float64.
// b need not be aligned. Integers convert exactly up to 2^53.
func (d DType) Float64(b []byte, i int) float64 {
	switch d {
	case F32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:])))
	case F64:
		return math.Float64frombits(binary.LittleEndian.Uint64(b[i*8:]))
	case F16:
		return float64(HalfToFloat32(binary.LittleEndian.Uint16(b[i*2:])))
	case U64:
		return float64(binary.LittleEndian.Uint64(b[i*8:]))
	}
	return float64(d.Int64(b, i))
}

// Int64 returns element i of integer elements as int64. A u64 above
// 2^63-1 wraps (use Uint64); floats truncate; an invalid type panics.
func (d DType) Int64(b []byte, i int) int64 {
	switch d {
	case I8:
		return int64(int8(b[i]))
	case U8:
		return int64(b[i])
	case I16:
		return int64(int16(binary.LittleEndian.Uint16(b[i*2:])))
	case U16:
		return int64(binary.LittleEndian.Uint16(b[i*2:]))
	case I32:
		return int64(int32(binary.LittleEndian.Uint32(b[i*4:])))
	case U32:
		return int64(binary.LittleEndian.Uint32(b[i*4:]))
	case I64, U64:
		return int64(binary.LittleEndian.Uint64(b[i*8:]))
	case F16, F32, F64:
		return int64(d.Float64(b, i))
	}
	panic(fmt.Sprintf("array: Int64 of invalid %v", d))
}

// Uint64 returns element i of u64 elements.
func (d DType) Uint64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i*8:]) }

// HalfToFloat32 converts IEEE 754 binary16 bits to float32 exactly,
// including subnormals, ±Inf and NaN (the payload is kept).
func HalfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+112)<<23 | mant<<13)
	case mant == 0: // ±0
		return math.Float32frombits(sign)
	}
	// Subnormal half: value = mant * 2^-24, normal in float32.
	e := uint32(113) // exponent of 2^-14 in float32 bias terms
	for mant&0x400 == 0 {
		mant <<= 1
		e--
	}
	return math.Float32frombits(sign | e<<23 | (mant&0x3ff)<<13)
}

// Float32ToHalf converts a float32 to IEEE 754 binary16 bits, rounding to
// nearest even; overflow gives ±Inf and NaN stays NaN.
func Float32ToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return sign | 0x7e00 | uint16(mant>>13)
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		if e < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint32(14 - e)
		half := uint16(mant >> shift)
		rem := mant & (1<<shift - 1)
		mid := uint32(1) << (shift - 1)
		if rem > mid || (rem == mid && half&1 == 1) {
			half++
		}
		return sign | half
	}
	half := uint16(e)<<10 | uint16(mant>>13)
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && half&1 == 1) {
		half++ // may carry into the exponent, up to Inf: still correct
	}
	return sign | half
}
