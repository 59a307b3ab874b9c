package gen_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetgen/internal/gen"
	"github.com/tetsql/tetsql/tetcore"
)

func TestParseDataset(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec string
		want gen.Dataset
	}{
		{"a:f32:10:5", gen.Dataset{Name: "a", DType: tetcore.F32, Shape: []int64{10}, Chunk: []int64{5}}},
		{"grid:f32:4096x4096:256x256:zstd:y,x", gen.Dataset{Name: "grid", DType: tetcore.F32,
			Shape: []int64{4096, 4096}, Chunk: []int64{256, 256}, Codec: tetcore.CodecZstd, Dims: []string{"y", "x"}}},
		{"g/sub.v:u8:3x4x5:2x4x10:raw", gen.Dataset{Name: "g/sub.v", DType: tetcore.U8,
			Shape: []int64{3, 4, 5}, Chunk: []int64{2, 4, 10}}},
		{"t:i64:7x2:7x1::time,k", gen.Dataset{Name: "t", DType: tetcore.I64, Shape: []int64{7, 2},
			Chunk: []int64{7, 1}, Dims: []string{"time", "k"}}},
		{"h:f16:1x1x1x1x1x1x1x2:1x1x1x1x1x1x1x1:zstd", gen.Dataset{Name: "h", DType: tetcore.F16,
			Shape: []int64{1, 1, 1, 1, 1, 1, 1, 2}, Chunk: []int64{1, 1, 1, 1, 1, 1, 1, 1}, Codec: tetcore.CodecZstd}},
	}
	for _, dt := range tetcore.AllDTypes {
		tests = append(tests, struct {
			spec string
			want gen.Dataset
		}{"x:" + dt.String() + ":4:3", gen.Dataset{Name: "x", DType: dt, Shape: []int64{4}, Chunk: []int64{3}}})
	}
	for _, tt := range tests {
		got, err := gen.ParseDataset(tt.spec)
		if err != nil {
			t.Errorf("ParseDataset(%q): %v", tt.spec, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseDataset(%q) = %+v, want %+v", tt.spec, got, tt.want)
		}
	}
}

func TestParseDataset_errors(t *testing.T) {
	t.Parallel()
	tests := []struct{ spec, want string }{
		{"", "1 fields"},
		{"a:f32:10", "3 fields"},
		{"a:f32:10:5:zstd:x:extra", "7 fields"},
		{":f32:10:5", "empty dataset name"},
		{"a:f8:10:5", `unknown dtype "f8"`},
		{"a:bool:10:5", "want one of f32 f64 i32 i64 u8 u16 i16 u32 f16 u64"},
		{"a:f32:10x0:5x5", "sizes must be at least 1"},
		{"a:f32:10x10:0x5", "sizes must be at least 1"},
		{"a:f32:10x-3:5x5", "sizes must be at least 1"},
		{"a:f32:10x:5x5", `"" is not a whole number`},
		{"a:f32:10,10:5x5", "not a whole number"},
		{"a:f32::5", "shape: empty"},
		{"a:f32:10x10:5", "chunk shape 5 has rank 1 but shape 10x10 has rank 2"},
		{"a:f32:1x1x1x1x1x1x1x1x1:1", "at most 8 axes"},
		{"a:f32:10:5:lz4", `unknown codec "lz4"`},
		{"a:f32:10x10:5x5:zstd:x", "1 dim names for rank 2"},
		{"a:f32:10x10:5x5:zstd:x,", "empty dim name"},
		{"a:f32:10x10:5x5:zstd:x,x", `dim name "x" used twice`},
		{"a:f64:4294967296x4294967296:1x1", "too large"},
		{"a:f64:100000x100000:100000x100000", "more than the 268435456 bytes readers accept"},
	}
	for _, tt := range tests {
		_, err := gen.ParseDataset(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseDataset(%q) error = %v, want it to contain %q", tt.spec, err, tt.want)
		}
	}
}

func TestParsePattern(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"ramp", "wave", "random"} {
		p, err := gen.ParsePattern(name)
		if err != nil || p.String() != name {
			t.Errorf("ParsePattern(%q) = %v, %v", name, p, err)
		}
	}
	if _, err := gen.ParsePattern("noise"); err == nil || !strings.Contains(err.Error(), "want ramp, wave or random") {
		t.Errorf("ParsePattern(noise) error = %v", err)
	}
}
