package fold_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

var (
	inf = math.Inf(1)
	nan = math.NaN()
)

// opt is an expected nullable float; null marks NULL.
type opt struct {
	v    float64
	null bool
}

var null = opt{null: true}

func v(x float64) opt { return opt{v: x} }

func u16s(hs ...uint16) []byte {
	b := make([]byte, 2*len(hs))
	for i, h := range hs {
		binary.LittleEndian.PutUint16(b[2*i:], h)
	}
	return b
}

func u64s(xs ...uint64) []byte {
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
	return b
}

func TestFoldBox_known(t *testing.T) {
	t.Parallel()
	const u64max = math.MaxUint64
	f32 := func(x float64) float64 { return float64(float32(x)) }
	cases := []struct {
		name                  string
		dt                    array.DType
		data                  []byte
		count, nulls          int64
		sum, mean, mn, mx, vr opt
		isum                  string // exact integer sum, "" for floats
		intSumOK              bool
	}{
		{"f64 basic", array.F64, encode(array.F64, 1, 2, 3, 4), 4, 0, v(10), v(2.5), v(1), v(4), v(1.25), "", false},
		{"f64 NaN skipped", array.F64, encode(array.F64, 1, nan, 3), 2, 1, v(4), v(2), v(1), v(3), v(1), "", false},
		{"f64 all NaN", array.F64, encode(array.F64, nan, nan), 0, 2, null, null, null, null, null, "", false},
		{"f64 +Inf", array.F64, encode(array.F64, inf, 1), 2, 0, v(inf), v(inf), v(1), v(inf), null, "", false},
		{"f64 +Inf-Inf", array.F64, encode(array.F64, inf, -inf, 2), 3, 0, null, null, v(-inf), v(inf), null, "", false},
		{"f64 overflow", array.F64, encode(array.F64, 1e308, 1e308), 2, 0, v(inf), v(inf), v(1e308), v(1e308), null, "", false},
		{"f64 cancel", array.F64, encode(array.F64, 1e100, 1, -1e100), 3, 0, v(1), v(1.0 / 3), v(-1e100), v(1e100), v(2e200 / 3), "", false},
		{"f32 exact widening", array.F32, encode(array.F32, 0.1, 0.2), 2, 0, v(f32(0.1) + f32(0.2)), v((f32(0.1) + f32(0.2)) / 2), v(f32(0.1)), v(f32(0.2)), v((f32(0.2) - f32(0.1)) * (f32(0.2) - f32(0.1)) / 4), "", false},
		{"f32 NaN Inf", array.F32, encode(array.F32, nan, -inf, 5), 2, 1, v(-inf), v(-inf), v(-inf), v(5), null, "", false},
		// f16: 1, −0, smallest subnormal 2^-24, 65504, +Inf, −Inf, NaN.
		{"f16 specials", array.F16, u16s(0x3c00, 0x8000, 0x0001, 0x7bff), 4, 0, v(65505 + 0x1p-24), v((65505 + 0x1p-24) / 4), v(0), v(65504), v(variance(1, 0, 0x1p-24, 65504)), "", false},
		{"f16 Inf NaN", array.F16, u16s(0x7c00, 0xfc00, 0x7e00, 0x3c00), 3, 1, null, null, v(-inf), v(inf), null, "", false},
		{"u8", array.U8, []byte{0, 255, 255, 1}, 4, 0, v(511), v(127.75), v(0), v(255), v(variance(0, 255, 255, 1)), "511", true},
		{"i16 extremes", array.I16, encode(array.I16, -32768, 32767, -1), 3, 0, v(-2), v(-2.0 / 3), v(-32768), v(32767), v(variance(-32768, 32767, -1)), "-2", true},
		{"u16", array.U16, encode(array.U16, 65535, 65535), 2, 0, v(131070), v(65535), v(65535), v(65535), v(0), "131070", true},
		{"u32 max×3", array.U32, encode(array.U32, 4294967295, 4294967295, 4294967295), 3, 0, v(12884901885), v(4294967295), v(4294967295), v(4294967295), v(0), "12884901885", true},
		{"i32 min×2", array.I32, encode(array.I32, -2147483648, -2147483648, 7), 3, 0, v(-4294967289), v(-4294967289.0 / 3), v(-2147483648), v(7), v(variance(-2147483648, -2147483648, 7)), "-4294967289", true},
		{"u64 max×5", array.U64, u64s(u64max, u64max, u64max, u64max, u64max), 5, 0, v(5 * 0x1p64), v(0x1p64), v(0x1p64), v(0x1p64), v(0), "92233720368547758075", false},
		{"i64 min×3", array.I64, encode(array.I64, math.MinInt64, math.MinInt64, math.MinInt64), 3, 0, v(-3 * 0x1p63), v(-0x1p63), v(-0x1p63), v(-0x1p63), v(0), "-27670116110564327424", false},
		{"i64 max+1", array.I64, u64s(math.MaxInt64, 1), 2, 0, v(0x1p63), v(0x1p62), v(1), v(0x1p63), v(0x1p124), "9223372036854775808", false},
		{"i64 max+1-1", array.I64, u64s(math.MaxInt64, 1, u64max), 3, 0, v(0x1p63), v(0x1p63 / 3), v(-1), v(0x1p63), v(variance(0x1p63, 1, -1)), "9223372036854775807", true},
	}
	for _, c := range cases {
		n := int64(len(c.data) / c.dt.Size())
		s, err := fold.FoldBox(c.dt, c.data, []int64{n}, []int64{0}, []int64{n})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.Count() != c.count || s.NullCount() != c.nulls {
			t.Errorf("%s: count %d null %d, want %d %d", c.name, s.Count(), s.NullCount(), c.count, c.nulls)
		}
		for _, f := range []struct {
			what string
			get  func() (float64, bool)
			want opt
		}{{"sum", s.Sum, c.sum}, {"mean", s.Mean, c.mean}, {"min", s.Min, c.mn}, {"max", s.Max, c.mx}, {"var", s.Var, c.vr}} {
			got, ok := f.get()
			if ok == f.want.null || (ok && !close(got, f.want.v)) {
				t.Errorf("%s: %s = %v (ok %v), want %v", c.name, f.what, got, ok, f.want)
			}
		}
		es, eok := s.ExactSum()
		if c.isum != "" && (!eok || es.String() != c.isum) || c.isum == "" && eok {
			t.Errorf("%s: exact sum %v (ok %v), want %q", c.name, es, eok, c.isum)
		}
		if is, ok := s.IntSum(); ok != c.intSumOK || (ok && es.String() != c.isum) {
			t.Errorf("%s: IntSum %d %v", c.name, is, ok)
		}
	}
}

// close reports a ≈ b within 1e-15 relative (exact for infinities).
func close(a, b float64) bool {
	if math.IsInf(b, 0) || b == 0 {
		return a == b
	}
	return math.Abs(a-b) <= 1e-15*math.Abs(b)
}

// variance is a two-pass population variance in float64 (exact enough
// for the short known cases).
func variance(xs ...float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	m := s / float64(len(xs))
	var q float64
	for _, x := range xs {
		q += (x - m) * (x - m)
	}
	return q / float64(len(xs))
}

func TestFoldBox_intExtremesSpan(t *testing.T) {
	t.Parallel()
	// u64 max repeated across several blocks: the exact sum needs 76 bits.
	const n = 5000
	data := make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint64(data[8*i:], math.MaxUint64)
	}
	for _, shift := range []int{0, 1} { // aligned and unaligned
		buf := make([]byte, len(data)+shift)
		copy(buf[shift:], data)
		s, err := fold.FoldBox(array.U64, buf[shift:], []int64{n}, []int64{0}, []int64{n})
		if err != nil {
			t.Fatal(err)
		}
		es, _ := s.ExactSum()
		if want := "92233720368547758075000"; es.String() != want {
			t.Fatalf("shift %d: sum %v, want %s", shift, es, want)
		}
		if mx, ok := s.IntMax(); ok {
			t.Fatalf("IntMax %d fits, want !ok", mx)
		}
		if vr, _ := s.Var(); vr != 0 {
			t.Fatalf("var %v, want 0", vr)
		}
	}
}

func TestFoldGroups_errors(t *testing.T) {
	t.Parallel()
	data := make([]byte, 4*6)
	out := make([]fold.Stats, 3)
	ext := []int64{2, 3}
	for _, c := range []struct {
		name        string
		dt          array.DType
		ext, lo, hi []int64
		stride      []int64
		base        int64
		data        []byte
		out         []fold.Stats
	}{
		{"dtype", 0, ext, []int64{0, 0}, []int64{2, 3}, nil, 0, data, out},
		{"rank", array.F32, ext, []int64{0}, []int64{2, 3}, nil, 0, data, out},
		{"strides", array.F32, ext, []int64{0, 0}, []int64{2, 3}, []int64{1}, 0, data, out},
		{"lo>hi", array.F32, ext, []int64{1, 0}, []int64{0, 3}, nil, 0, data, out},
		{"hi>extent", array.F32, ext, []int64{0, 0}, []int64{2, 4}, nil, 0, data, out},
		{"negative lo", array.F32, ext, []int64{-1, 0}, []int64{2, 3}, nil, 0, data, out},
		{"short data", array.F64, ext, []int64{0, 0}, []int64{2, 3}, nil, 0, data, out},
		{"huge extent", array.U8, []int64{1 << 40, 1 << 40}, []int64{0, 0}, []int64{1, 1}, nil, 0, data, out},
		{"group beyond", array.F32, ext, []int64{0, 0}, []int64{2, 3}, []int64{0, 1}, 1, data, out},
		{"negative base", array.F32, ext, []int64{0, 0}, []int64{2, 3}, nil, -1, data, out},
		{"no groups", array.F32, ext, []int64{0, 0}, []int64{2, 3}, nil, 0, data, nil},
		{"huge stride", array.F32, ext, []int64{0, 0}, []int64{2, 3}, []int64{math.MaxInt64, 0}, 0, data, out},
		{"rank 17", array.U8, make([]int64, 17), make([]int64, 17), make([]int64, 17), nil, 0, data, out},
		{"rank above MaxRank", array.U8, make([]int64, fold.MaxRank+1), make([]int64, fold.MaxRank+1), make([]int64, fold.MaxRank+1), nil, 0, data, out},
	} {
		err := fold.FoldGroups(c.dt, c.data, c.ext, c.lo, c.hi, c.stride, c.base, c.out)
		if !errors.Is(err, fold.ErrInvalid) {
			t.Errorf("%s: err %v, want ErrInvalid", c.name, err)
		}
	}
	// An empty box is valid and touches nothing.
	if err := fold.FoldGroups(array.F32, data, ext, []int64{1, 0}, []int64{1, 3}, nil, 0, out); err != nil {
		t.Fatal(err)
	}
	if out[0].Count() != 0 || out[0].NullCount() != 0 {
		t.Fatal("empty box changed out")
	}
	// Rank 0: a scalar.
	s, err := fold.FoldBox(array.F64, encode(array.F64, 7), nil, nil, nil)
	if got, _ := s.Sum(); err != nil || got != 7 || s.Count() != 1 {
		t.Fatalf("scalar: %v %v", s, err)
	}
}

// TestFoldGroups_f16All folds every binary16 bit pattern into its own
// group and compares with tetcore's conversion.
func TestFoldGroups_f16All(t *testing.T) {
	t.Parallel()
	data := make([]byte, 2<<16)
	for h := range 1 << 16 {
		binary.LittleEndian.PutUint16(data[2*h:], uint16(h))
	}
	for _, shape := range [][]int64{{1 << 16}, {256, 256}} {
		keep := make([]bool, len(shape))
		for d := range keep {
			keep[d] = true
		}
		stride, groups := fold.Strides(shape, keep)
		out := make([]fold.Stats, groups)
		if err := fold.FoldGroups(array.F16, data, shape, make([]int64, len(shape)), shape, stride, 0, out); err != nil {
			t.Fatal(err)
		}
		for h, s := range out {
			want := float64(array.HalfToFloat32(uint16(h)))
			got, ok := s.Min()
			if math.IsNaN(want) {
				if ok || s.NullCount() != 1 {
					t.Fatalf("%#04x: NaN gave %v %v", h, got, ok)
				}
			} else if !ok || got != want || math.Signbit(got) != math.Signbit(want) {
				t.Fatalf("%#04x: %v, want %v", h, got, want)
			}
		}
	}
}

func TestStrides(t *testing.T) {
	t.Parallel()
	stride, n := fold.Strides([]int64{4, 5, 6}, []bool{true, false, true})
	if fmt.Sprint(stride, n) != "[6 0 1] 24" {
		t.Fatalf("got %v %d", stride, n)
	}
	if stride, n = fold.Strides([]int64{4, 5}, nil); fmt.Sprint(stride, n) != "[0 0] 1" {
		t.Fatalf("got %v %d", stride, n)
	}
}

// TestWidenF16_exhaustive converts every half-precision bit pattern at
// every kernel level, in runs of 8 (the vector path) and singly, and
// compares the bits with array.HalfToFloat32 (NaN: any NaN).
func TestWidenF16_exhaustive(t *testing.T) {
	t.Parallel()
	hs := make([]uint16, 1<<16)
	for i := range hs {
		hs[i] = uint16(i)
	}
	for _, level := range fold.Kernels() {
		for _, n := range []int{len(hs), 7} {
			dst := make([]float32, len(hs))
			for i := 0; i < len(hs); i += n {
				fold.WidenF16(dst[i:min(i+n, len(hs))], hs[i:min(i+n, len(hs))], level)
			}
			for i, h := range hs {
				want := array.HalfToFloat32(h)
				if got := dst[i]; math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
					t.Fatalf("%s, runs of %d: half %#04x -> %v (%#08x), want %v (%#08x)", fold.KernelName(level), n, h, got, math.Float32bits(got), want, math.Float32bits(want))
				}
			}
		}
	}
}
