package tetcore_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// halfValue computes the value of half bits h from the IEEE definition,
// independently of HalfToFloat32.
func halfValue(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10)&0x1f, float64(h&0x3ff)
	switch e {
	case 0:
		return sign * math.Ldexp(m, -24)
	case 0x1f:
		if m == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * math.Ldexp(1+m/1024, e-15)
}

func isHalfNaN(h uint16) bool { return h&0x7c00 == 0x7c00 && h&0x3ff != 0 }

func TestHalf_allBitPatterns(t *testing.T) {
	t.Parallel()
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := tetcore.HalfToFloat32(h)
		want := halfValue(h)
		back := tetcore.Float32ToHalf(f)
		if isHalfNaN(h) {
			// NaN stays NaN, sign and payload kept (quiet bit set).
			if !math.IsNaN(float64(f)) || math.Float32bits(f)>>31 != uint32(h>>15) || back != h|0x200 {
				t.Fatalf("NaN %#04x → %#08x → %#04x", h, math.Float32bits(f), back)
			}
			continue
		}
		if float64(f) != want || math.Signbit(float64(f)) != (h&0x8000 != 0) {
			t.Fatalf("HalfToFloat32(%#04x) = %g, want %g", h, f, want)
		}
		if back != h {
			t.Fatalf("round trip %#04x → %g → %#04x", h, f, back)
		}
	}
}

// TestHalf_roundingAgainstReference checks Float32ToHalf at every midpoint
// between adjacent finite halves and one float32 ulp either side.
func TestHalf_roundingAgainstReference(t *testing.T) {
	t.Parallel()
	for h := uint16(0); h < 0x7c00; h++ { // positive finite; the sign is symmetric
		lo, hi := halfValue(h), halfValue(h+1) // h+1 = 0x7c00 is +Inf: midpoint is 65520
		if h == 0x7bff {
			hi = 65536
		}
		mid := float32((lo + hi) / 2) // exact: halves have 11 significant bits
		if float64(mid) != (lo+hi)/2 {
			t.Fatalf("midpoint %g not exact", (lo+hi)/2)
		}
		even := h
		if h&1 == 1 {
			even = h + 1
		}
		for _, tc := range []struct {
			f    float32
			want uint16
		}{
			{mid, even},
			{math.Nextafter32(mid, 0), h},
			{math.Nextafter32(mid, math.MaxFloat32), h + 1},
		} {
			if got := tetcore.Float32ToHalf(tc.f); got != tc.want {
				t.Fatalf("Float32ToHalf(%g) between %#04x and %#04x = %#04x, want %#04x", tc.f, h, h+1, got, tc.want)
			}
			if got := tetcore.Float32ToHalf(-tc.f); got != tc.want|0x8000 {
				t.Fatalf("Float32ToHalf(%g) = %#04x, want %#04x", -tc.f, got, tc.want|0x8000)
			}
		}
	}
}

func TestHalf_specialValues(t *testing.T) {
	t.Parallel()
	inf := float32(math.Inf(1))
	cases := []struct {
		f    float32
		want uint16
	}{
		{0, 0x0000},
		{float32(math.Copysign(0, -1)), 0x8000},
		{1, 0x3c00},
		{-2, 0xc000},
		{65504, 0x7bff},
		{65519.996, 0x7bff},
		{65520, 0x7c00}, // tie between max and 2^16: even is Inf
		{1e6, 0x7c00},
		{math.MaxFloat32, 0x7c00},
		{-math.MaxFloat32, 0xfc00},
		{inf, 0x7c00},
		{-inf, 0xfc00},
		{0x1p-14, 0x0400},                // min normal
		{0x1p-24, 0x0001},                // min subnormal
		{-0x1p-24, 0x8001},               // negative subnormal
		{1023 * 0x1p-24, 0x03ff},         // max subnormal
		{1023.5 * 0x1p-24, 0x0400},       // tie at the subnormal/normal border → even (normal)
		{0x1p-25, 0x0000},                // tie between 0 and min subnormal → even 0
		{0x1.000002p-25, 0x0001},         // just above that tie
		{3 * 0x1p-25, 0x0002},            // tie between 1 and 2 subnormal units → 2
		{0x1p-26, 0x0000},                // underflow
		{-0x1p-26, 0x8000},               // underflow keeps the sign
		{math.SmallestNonzeroFloat32, 0}, // float32 subnormal
		{1 + 0x1p-11, 0x3c00},            // tie → even (1.0)
		{1 + 3*0x1p-11, 0x3c02},          // tie → even (upwards)
		{2047.5, 0x6800},                 // tie between 2047 (0x67ff) and 2048: the carry reaches the exponent
	}
	for _, tc := range cases {
		if got := tetcore.Float32ToHalf(tc.f); got != tc.want {
			t.Errorf("Float32ToHalf(%g) = %#04x, want %#04x", tc.f, got, tc.want)
		}
	}
	for _, nan := range []uint32{0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0xff800001} {
		h := tetcore.Float32ToHalf(math.Float32frombits(nan))
		if !isHalfNaN(h) || h>>15 != uint16(nan>>31) {
			t.Errorf("NaN %#08x → %#04x", nan, h)
		}
	}
}

// dtypeCase is one element value in each of its forms.
type dtypeCase struct {
	dt    tetcore.DType
	bits  uint64 // little-endian element bits
	f64   float64
	i64   int64
	u64   uint64 // checked for U64 only
	noInt bool   // Int64 undefined (NaN, ±Inf, out of range)
}

func dtypeCases() []dtypeCase {
	f32 := func(v float32, i int64, noInt bool) dtypeCase {
		return dtypeCase{tetcore.F32, uint64(math.Float32bits(v)), float64(v), i, 0, noInt}
	}
	f64 := func(v float64, i int64, noInt bool) dtypeCase {
		return dtypeCase{tetcore.F64, math.Float64bits(v), v, i, 0, noInt}
	}
	f16 := func(h uint16, v float64, i int64, noInt bool) dtypeCase {
		return dtypeCase{tetcore.F16, uint64(h), v, i, 0, noInt}
	}
	ints := func(dt tetcore.DType, size int, v int64) dtypeCase {
		return dtypeCase{dt, uint64(v) & (math.MaxUint64 >> (64 - 8*size)), float64(v), v, 0, false}
	}
	return []dtypeCase{
		f32(-2.75, -2, false), f32(3.5e9, 3500000000, false), f32(float32(math.Inf(-1)), 0, true),
		f32(float32(math.NaN()), 0, true), f32(0x1p-149, 0, false),
		f64(-1e300, 0, true), f64(9007199254740993, 9007199254740992, false), f64(math.Copysign(0, -1), 0, false),
		f16(0xc170, -2.71875, -2, false), f16(0x7bff, 65504, 65504, false), f16(0x0001, 0x1p-24, 0, false), f16(0x7e00, math.NaN(), 0, true),
		ints(tetcore.U8, 1, 0), ints(tetcore.U8, 1, 255),
		ints(tetcore.U16, 2, 65535), ints(tetcore.I16, 2, -32768), ints(tetcore.I16, 2, 32767),
		ints(tetcore.U32, 4, math.MaxUint32), ints(tetcore.I32, 4, math.MinInt32), ints(tetcore.I32, 4, -1),
		ints(tetcore.I64, 8, math.MinInt64), ints(tetcore.I64, 8, math.MaxInt64), ints(tetcore.I64, 8, -(1<<53)-1),
		{tetcore.U64, math.MaxUint64, 18446744073709551615, -1, math.MaxUint64, false},
		{tetcore.U64, 1 << 63, 9223372036854775808, math.MinInt64, 1 << 63, false},
		{tetcore.U64, 1<<53 + 1, 9007199254740992, 1<<53 + 1, 1<<53 + 1, false},
	}
}

// TestDType_unalignedAccess reads each value as element 2 of a payload
// starting at every misalignment 0..7, for all ten dtypes.
func TestDType_unalignedAccess(t *testing.T) {
	t.Parallel()
	seen := map[tetcore.DType]bool{}
	for _, tc := range dtypeCases() {
		seen[tc.dt] = true
		size := tc.dt.Size()
		for off := 0; off < 8; off++ {
			buf := make([]byte, off+4*size)
			for i := range buf {
				buf[i] = 0xa5
			}
			p := buf[off:]
			var full [8]byte
			binary.LittleEndian.PutUint64(full[:], tc.bits)
			copy(p[2*size:], full[:size])
			name := fmt.Sprintf("%v %#x at +%d", tc.dt, tc.bits, off)
			if got := tc.dt.Float64(p, 2); got != tc.f64 && !(math.IsNaN(got) && math.IsNaN(tc.f64)) ||
				math.Signbit(got) != math.Signbit(tc.f64) && !math.IsNaN(got) {
				t.Errorf("%s: Float64 = %v, want %v", name, got, tc.f64)
			}
			if !tc.noInt {
				if got := tc.dt.Int64(p, 2); got != tc.i64 {
					t.Errorf("%s: Int64 = %d, want %d", name, got, tc.i64)
				}
			}
			if tc.dt == tetcore.U64 {
				if got := tc.dt.Uint64(p, 2); got != tc.u64 {
					t.Errorf("%s: Uint64 = %d, want %d", name, got, tc.u64)
				}
			}
		}
	}
	if len(seen) != len(tetcore.AllDTypes) {
		t.Errorf("covered %d dtypes", len(seen))
	}
}

func TestDType_namesAndSizes(t *testing.T) {
	t.Parallel()
	sizes := map[string]int{"f32": 4, "f64": 8, "i32": 4, "i64": 8, "u8": 1, "u16": 2, "i16": 2, "u32": 4, "f16": 2, "u64": 8}
	if len(tetcore.AllDTypes) != 10 {
		t.Fatalf("%d dtypes", len(tetcore.AllDTypes))
	}
	for i, dt := range tetcore.AllDTypes {
		if uint32(dt) != uint32(i+1) || !dt.Valid() {
			t.Errorf("AllDTypes[%d] = %d", i, dt)
		}
		back, err := tetcore.ParseDType(dt.String())
		if err != nil || back != dt || dt.Size() != sizes[dt.String()] {
			t.Errorf("%v: ParseDType %v %v, size %d", dt, back, err, dt.Size())
		}
		if want := dt == tetcore.F16 || dt == tetcore.F32 || dt == tetcore.F64; dt.IsFloat() != want {
			t.Errorf("%v.IsFloat() = %v", dt, dt.IsFloat())
		}
	}
	for _, bad := range []string{"", "F32", "f8", "bool", "i8", "float32", " f32"} {
		if _, err := tetcore.ParseDType(bad); err == nil {
			t.Errorf("ParseDType(%q) accepted", bad)
		}
	}
	for _, dt := range []tetcore.DType{0, 11, math.MaxUint32} {
		if dt.Valid() || dt.Size() != 0 || dt.String() != fmt.Sprintf("dtype(%d)", uint32(dt)) || dt.IsFloat() {
			t.Errorf("invalid %d: valid %v size %d %q", uint32(dt), dt.Valid(), dt.Size(), dt)
		}
		// Used to recurse between Float64 and Int64 until the stack overflowed.
		for _, call := range []func(){func() { dt.Float64(make([]byte, 8), 0) }, func() { dt.Int64(make([]byte, 8), 0) }} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%v: no panic", dt)
					}
				}()
				call()
			}()
		}
	}
	if tetcore.CodecRaw.String() != "raw" || tetcore.CodecZstd.String() != "zstd" || tetcore.Codec(7).String() != "codec(?)" {
		t.Error("codec names")
	}
}
