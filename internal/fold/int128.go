package fold

import (
	"math"
	"math/big"
	"math/bits"
)

// Int128 is a two's-complement 128-bit signed integer: the value is
// Hi·2^64 + Lo with Hi signed. It holds the exact sum of up to 2^63
// elements of any integer dtype (u64 and i64 included) without overflow.
type Int128 struct {
	Hi int64
	Lo uint64
}

// Int128FromInt64 returns v as an Int128.
func Int128FromInt64(v int64) Int128 { return Int128{Hi: v >> 63, Lo: uint64(v)} }

// Int128FromUint64 returns v as an Int128.
func Int128FromUint64(v uint64) Int128 { return Int128{Lo: v} }

// Add returns x+y (wrapping modulo 2^128, which sums of fewer than 2^63
// 64-bit elements never reach).
func (x Int128) Add(y Int128) Int128 {
	lo, c := bits.Add64(x.Lo, y.Lo, 0)
	return Int128{Hi: x.Hi + y.Hi + int64(c), Lo: lo}
}

// Sub returns x−y (wrapping modulo 2^128).
func (x Int128) Sub(y Int128) Int128 {
	lo, b := bits.Sub64(x.Lo, y.Lo, 0)
	return Int128{Hi: x.Hi - y.Hi - int64(b), Lo: lo}
}

// Cmp returns -1, 0 or +1 as x is less than, equal to or greater than y.
func (x Int128) Cmp(y Int128) int {
	switch {
	case x.Hi < y.Hi:
		return -1
	case x.Hi > y.Hi:
		return 1
	case x.Lo < y.Lo:
		return -1
	case x.Lo > y.Lo:
		return 1
	}
	return 0
}

// Int64 returns x as an int64 and whether it fits (is in
// [math.MinInt64, math.MaxInt64]).
func (x Int128) Int64() (int64, bool) {
	v := int64(x.Lo)
	return v, x.Hi == v>>63
}

// Float64 returns x rounded to the nearest float64 (ties to even), the
// same value a correctly rounded int64 → float64 conversion gives when x
// fits in an int64.
func (x Int128) Float64() float64 {
	neg := x.Hi < 0
	hi, lo := uint64(x.Hi), x.Lo
	if neg { // |x| as an unsigned 128-bit value (MinInt128 → 2^127)
		var b uint64
		lo, b = bits.Sub64(0, lo, 0)
		hi, _ = bits.Sub64(0, hi, b)
	}
	var f float64
	if hi == 0 {
		f = float64(lo)
	} else {
		s := uint(bits.LeadingZeros64(hi))
		top := hi<<s | lo>>(64-s) // lo>>64 is 0 in Go
		if lo<<s != 0 {
			top |= 1 // sticky bit: below the rounding position of a float64
		}
		f = math.Ldexp(float64(top), 64-int(s))
	}
	if neg {
		return -f
	}
	return f
}

// Big returns x as a new big.Int.
func (x Int128) Big() *big.Int {
	b := new(big.Int).SetInt64(x.Hi)
	b.Lsh(b, 64)
	return b.Add(b, new(big.Int).SetUint64(x.Lo))
}

// String returns x in decimal.
func (x Int128) String() string { return x.Big().String() }

// int128FromFloat returns the integral float64 f (|f| < 2^127) exactly.
func int128FromFloat(f float64) Int128 {
	if f > -0x1p63 && f < 0x1p63 {
		return Int128FromInt64(int64(f))
	}
	mant, exp := math.Frexp(math.Abs(f)) // |f| = mant·2^exp, exp ≥ 64
	m := uint64(mant * 0x1p53)           // exact: 53 significant bits
	sh := uint(exp - 53)                 // ≥ 11 and < 74
	var r Int128
	if sh >= 64 {
		r = Int128{Hi: int64(m << (sh - 64))}
	} else {
		r = Int128{Hi: int64(m >> (64 - sh)), Lo: m << sh}
	}
	if f < 0 {
		return Int128{}.Sub(r)
	}
	return r
}

// doubleDouble splits x into hi+lo with hi = x rounded to float64 and lo
// the rounded remainder, so hi+lo carries about 106 bits of x.
func (x Int128) doubleDouble() (hi, lo float64) {
	if v, ok := x.Int64(); ok && v >= -1<<53 && v <= 1<<53 {
		return float64(v), 0
	}
	hi = x.Float64()
	if math.Abs(hi) >= 0x1p127 {
		return hi, 0 // beyond any reachable sum; keep the rounded value
	}
	return hi, x.Sub(int128FromFloat(hi)).Float64()
}
