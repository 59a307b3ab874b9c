package array_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

func TestValidate_errors(t *testing.T) {
	t.Parallel()
	s := func(v ...int64) []int64 { return v }
	for _, tc := range []struct {
		name string
		in   array.Info
		want error
		msg  string
	}{
		{"dtype", array.Info{Shape: s(1), ChunkShape: s(1)}, array.ErrCorrupt, "invalid dtype"},
		{"dtype past f64", array.Info{DType: array.F64 + 1, Shape: s(1), ChunkShape: s(1)}, array.ErrCorrupt, "invalid dtype"},
		{"rank 9", array.Info{DType: array.U8, Shape: make([]int64, 9), ChunkShape: make([]int64, 9)}, array.ErrUnsupported, "rank 9"},
		{"chunk rank", array.Info{DType: array.U8, Shape: s(1, 1), ChunkShape: s(1)}, array.ErrCorrupt, "chunk shape has 1 axes"},
		{"dim names", array.Info{DType: array.U8, Shape: s(1), ChunkShape: s(1), DimNames: []string{"a", "b"}}, array.ErrCorrupt, "2 dim names"},
		{"labels rank", array.Info{DType: array.U8, Shape: s(1), ChunkShape: s(1), Labels: [][]string{nil, nil}}, array.ErrCorrupt, "labels for 2 axes"},
		{"labels count", array.Info{DType: array.U8, Shape: s(2), ChunkShape: s(1), Labels: [][]string{{"x"}}}, array.ErrCorrupt, "1 labels for size 2"},
		{"negative size", array.Info{DType: array.U8, Shape: s(-1), ChunkShape: s(1)}, array.ErrCorrupt, "size -1"},
		{"chunk 0", array.Info{DType: array.U8, Shape: s(4), ChunkShape: s(0)}, array.ErrCorrupt, "chunk size 0"},
		{"elements overflow", array.Info{DType: array.U8, Shape: s(math.MaxInt64, 2), ChunkShape: s(math.MaxInt64, 2)}, array.ErrCorrupt, "overflows"},
		{"bytes overflow", array.Info{DType: array.F64, Shape: s(math.MaxInt64 / 4), ChunkShape: s(1 << 40)}, array.ErrCorrupt, "overflows in bytes"},
	} {
		err := tc.in.Validate()
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want %v saying %q", tc.name, err, tc.want, tc.msg)
		}
	}
}

func TestValidate_ok(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		shape, chunk []int64
		grid         []int64
		count, elems int64
	}{
		{"exact", []int64{4, 6}, []int64{2, 3}, []int64{2, 2}, 4, 24},
		{"edges", []int64{5, 7}, []int64{2, 3}, []int64{3, 3}, 9, 35},
		{"chunk larger than shape", []int64{3}, []int64{10}, []int64{1}, 1, 3},
		{"empty axis", []int64{0, 5}, []int64{2, 2}, []int64{0, 3}, 0, 0},
		{"rank 8", []int64{1, 2, 1, 2, 1, 2, 1, 2}, []int64{1, 1, 1, 1, 1, 1, 1, 1}, []int64{1, 2, 1, 2, 1, 2, 1, 2}, 16, 16},
	} {
		in := array.Info{Name: tc.name, DType: array.I32, Shape: tc.shape, ChunkShape: tc.chunk,
			Labels: make([][]string, len(tc.shape))}
		if err := in.Validate(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !equal(in.Grid(), tc.grid) || in.ChunkCount() != tc.count || in.Elements() != tc.elems {
			t.Errorf("%s: grid %v, %d chunks, %d elements; want %v, %d, %d", tc.name, in.Grid(), in.ChunkCount(), in.Elements(), tc.grid, tc.count, tc.elems)
		}
		// The chunk boxes tile the shape: their sizes add up to Elements,
		// and ChunkCoords is the box's start divided by the chunk shape.
		r := in.Rank()
		start, extent, coords := make([]int64, r), make([]int64, r), make([]int64, r)
		var sum int64
		for id := range in.ChunkCount() {
			sum += in.ChunkBox(id, start, extent)
			in.ChunkCoords(id, coords)
			for a := range r {
				if coords[a]*tc.chunk[a] != start[a] || extent[a] < 1 || start[a]+extent[a] > tc.shape[a] {
					t.Errorf("%s chunk %d: coords %v start %v extent %v", tc.name, id, coords, start, extent)
				}
			}
		}
		if sum != tc.elems {
			t.Errorf("%s: boxes hold %d elements, want %d", tc.name, sum, tc.elems)
		}
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDType_all: names, sizes and kinds of every type, and ParseDType
// inverting String.
func TestDType_all(t *testing.T) {
	t.Parallel()
	want := map[array.DType]struct {
		name          string
		size          int
		float, signed bool
	}{
		array.I8: {"i8", 1, false, true}, array.I16: {"i16", 2, false, true}, array.I32: {"i32", 4, false, true},
		array.I64: {"i64", 8, false, true}, array.U8: {"u8", 1, false, false}, array.U16: {"u16", 2, false, false},
		array.U32: {"u32", 4, false, false}, array.U64: {"u64", 8, false, false}, array.F16: {"f16", 2, true, false},
		array.F32: {"f32", 4, true, false}, array.F64: {"f64", 8, true, false},
	}
	for d, w := range want {
		if d.String() != w.name || d.Size() != w.size || d.IsFloat() != w.float || d.IsSigned() != w.signed || !d.Valid() {
			t.Errorf("%v: %q %d %v %v", d, d.String(), d.Size(), d.IsFloat(), d.IsSigned())
		}
		if p, err := array.ParseDType(w.name); p != d || err != nil {
			t.Errorf("ParseDType(%q) = %v, %v", w.name, p, err)
		}
	}
	for _, d := range []array.DType{array.Invalid, array.F64 + 1, 255} {
		if d.Valid() || d.Size() != 0 || !strings.HasPrefix(d.String(), "dtype(") {
			t.Errorf("invalid %d: %v %d %q", uint8(d), d.Valid(), d.Size(), d.String())
		}
	}
}

// TestHalf_roundTrip: every half converts to float32 and back to the
// same bits (NaNs stay NaN).
func TestHalf_roundTrip(t *testing.T) {
	t.Parallel()
	for h := range 1 << 16 {
		f := array.HalfToFloat32(uint16(h))
		back := array.Float32ToHalf(f)
		if f != f {
			if back&0x7c00 != 0x7c00 || back&0x3ff == 0 {
				t.Fatalf("NaN %#04x came back as %#04x", h, back)
			}
			continue
		}
		if back != uint16(h) {
			t.Fatalf("%#04x → %g → %#04x", h, f, back)
		}
	}
}

// TestValidate_rank0 checks that a 0-d array (Blosc2 NDim files hold
// them) is one element in one chunk, with an empty grid.
func TestValidate_rank0(t *testing.T) {
	in := array.Info{Name: "x", DType: array.F64}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	if in.Rank() != 0 || in.Elements() != 1 || in.ChunkCount() != 1 || len(in.Grid()) != 0 {
		t.Errorf("rank 0: rank %d, %d elements, %d chunks, grid %v", in.Rank(), in.Elements(), in.ChunkCount(), in.Grid())
	}
	var start, extent []int64
	if n := in.ChunkBox(0, start, extent); n != 1 {
		t.Errorf("ChunkBox(0) = %d elements, want 1", n)
	}
}
