package scan

import (
	"encoding/binary"
	"math"

	"github.com/tetsql/tetsql/array"
)

// Sort keys of a top-k: every element maps to a uint64 whose unsigned
// order is SQLite's ORDER BY order of the value the cells table emits for
// it, so that one comparison of (key, rowid) serves every dtype:
//
//   - floats: NaN (emitted as NULL, which sorts first) is 0; other values
//     are their IEEE bits made monotone (negatives inverted, the sign bit
//     set on positives), with -0 read as +0 (SQLite finds them equal);
//   - signed integers and u8..u32: the value with its sign bit flipped
//     (no NULL: 0 is then math.MinInt64);
//   - u64: the value up to 2^63-1 (emitted as INTEGER), else the REAL it
//     is emitted as (rounded to float64, every such REAL ≥ 2^63 is above
//     every INTEGER), 2^64 itself as math.MaxUint64.
//
// A descending top-k uses the inverted key (^k), so that NULL, 0, becomes
// the largest and sorts last, as SQLite sorts NULL last in DESC.

// floatKey is the key of a float value.
func floatKey(f float64) uint64 {
	if f != f {
		return 0
	}
	if f == 0 {
		f = 0 // -0 and +0 tie
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// u64RealKey is the key of a u64 element above 2^63-1, by the REAL r it
// is emitted as.
func u64RealKey(r float64) uint64 {
	if r >= 0x1p64 {
		return math.MaxUint64
	}
	return uint64(r)
}

// numKey is the key of an emitted value of dtype dt (a chunk's min or max).
func numKey(dt array.DType, n Num) uint64 {
	switch {
	case dt.IsFloat():
		if !n.Real {
			return floatKey(float64(n.I))
		}
		return floatKey(n.F)
	case dt == array.U64:
		if n.Real {
			return u64RealKey(n.F)
		}
		return uint64(n.I)
	}
	return uint64(n.I) ^ 1<<63
}

// keyValue is the SQL value of key k of dtype dt: NULL (null true), an
// INTEGER or a REAL.
func keyValue(dt array.DType, k uint64) (n Num, null bool) {
	switch {
	case dt.IsFloat():
		if k == 0 {
			return Num{}, true
		}
		if k>>63 != 0 {
			k &^= 1 << 63
		} else {
			k = ^k
		}
		return Num{F: math.Float64frombits(k), Real: true}, false
	case dt == array.U64:
		if k <= math.MaxInt64 {
			return Num{I: int64(k)}, false
		}
		return Num{F: float64(k), Real: true}, false
	}
	return Num{I: int64(k ^ 1<<63)}, false
}

// encodeKeys writes the keys of the len(keys) elements of dt that start
// at element off of data, xored with flip (0, or all ones for DESC).
func encodeKeys(dt array.DType, data []byte, off int64, keys []uint64, flip uint64) {
	le := binary.LittleEndian
	switch dt {
	case array.F32:
		b := data[off*4:]
		for i := range keys {
			keys[i] = floatKey(float64(math.Float32frombits(le.Uint32(b[4*i:])))) ^ flip
		}
	case array.F64:
		b := data[off*8:]
		for i := range keys {
			keys[i] = floatKey(math.Float64frombits(le.Uint64(b[8*i:]))) ^ flip
		}
	case array.F16:
		for i := range keys {
			keys[i] = floatKey(dt.Float64(data, int(off)+i)) ^ flip
		}
	case array.U64:
		b := data[off*8:]
		for i := range keys {
			u := le.Uint64(b[8*i:])
			if u > math.MaxInt64 {
				u = u64RealKey(float64(u))
			}
			keys[i] = u ^ flip
		}
	default:
		for i := range keys {
			keys[i] = uint64(dt.Int64(data, int(off)+i)) ^ 1<<63 ^ flip
		}
	}
}
