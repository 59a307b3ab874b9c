package b2nd

import (
	"errors"
	"fmt"
	"github.com/tetsql/tetsql/internal/codec/blosc"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

func TestMapDType(t *testing.T) {
	tests := []struct {
		in   string
		want array.DType
		be   bool
		err  string // substring of the ErrUnsupported message
	}{
		{"<f2", array.F16, false, ""}, {"<f4", array.F32, false, ""}, {"<f8", array.F64, false, ""},
		{"|i1", array.I8, false, ""}, {"<i2", array.I16, false, ""}, {"<i4", array.I32, false, ""}, {"<i8", array.I64, false, ""},
		{"|u1", array.U8, false, ""}, {"<u2", array.U16, false, ""}, {"<u4", array.U32, false, ""}, {"<u8", array.U64, false, ""},
		{"|b1", array.U8, false, ""}, {">i4", array.I32, true, ""}, {">f8", array.F64, true, ""}, {">u2", array.U16, true, ""},
		{">i1", array.I8, false, ""}, // one byte has no order
		{"<c8", 0, false, "complex"}, {"<c16", 0, false, "complex"}, {"|S2", 0, false, "bytes"},
		{"<U4", 0, false, "unicode"}, {"<M8[ns]", 0, false, "datetime"}, {"|O", 0, false, "unknown"},
		{"[('t', '<f4'), ('q', '<i2')]", 0, false, "structured"}, {"<f16", 0, false, "width 16"}, {"", 0, false, "unknown"},
	}
	for _, tc := range tests {
		d, be, err := mapDType(tc.in)
		if tc.err != "" {
			if !errors.Is(err, array.ErrUnsupported) || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), tc.in) {
				t.Errorf("mapDType(%q) err = %v, want one naming %q and the dtype", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || d != tc.want || be != tc.be {
			t.Errorf("mapDType(%q) = %v, %v, %v; want %v, %v", tc.in, d, be, err, tc.want, tc.be)
		}
	}
}

func TestDimNames(t *testing.T) {
	tests := []struct {
		v    any
		ndim int
		want []string
	}{
		{[]any{"a", "b"}, 2, []string{"a", "b"}},
		{[]any{"a", "a"}, 2, nil}, // not distinct
		{[]any{"a"}, 2, nil},      // wrong count
		{[]any{"a", int64(1)}, 2, nil},
		{[]any{"a", ""}, 2, nil},
		{"ab", 2, nil},
		{nil, 1, nil},
		{[]any{}, 0, nil},
	}
	for _, tc := range tests {
		if got := dimNames(tc.v, tc.ndim); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("dimNames(%v, %d) = %q, want %q", tc.v, tc.ndim, got, tc.want)
		}
	}
}

// TestParseDir_malformed: a sparse frame with a missing chunk file, a
// chunk file of the wrong size, or a contiguous frame in its place.
func TestParseDir_malformed(t *testing.T) {
	src := filepath.Join("testdata", "sparse_frame.b2nd")
	copyDir := func(t *testing.T) string {
		dir := t.TempDir()
		ents, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	tests := []struct {
		name   string
		mutate func(dir string) error
		want   string
	}{
		{"missing chunk file", func(dir string) error { return os.Remove(filepath.Join(dir, "00000004.chunk")) }, "00000004.chunk"},
		{"chunk file cut", func(dir string) error { return os.Truncate(filepath.Join(dir, "00000001.chunk"), 40) }, "cbytes"},
		{"chunk file empty", func(dir string) error { return os.Truncate(filepath.Join(dir, "00000001.chunk"), 0) }, "chunk header needs 16 bytes, 0 available"},
		{"chunk file grown", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "00000002.chunk"), make([]byte, 4096), 0o644)
		}, "chunk"},
		{"contiguous frame", func(dir string) error {
			b, err := os.ReadFile(filepath.Join("testdata", "rank2.b2nd"))
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, blosc.SparseFrameFile), b, 0o644)
		}, "not a sparse frame"},
		{"no frame file", func(dir string) error { return os.Remove(filepath.Join(dir, blosc.SparseFrameFile)) }, blosc.SparseFrameFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t)
			if _, err := ParseDir(dir); err != nil {
				t.Fatalf("unmutated copy: %v", err)
			}
			if err := tc.mutate(dir); err != nil {
				t.Fatal(err)
			}
			_, err := ParseDir(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
}

// Example: the attributes fixture's layout, dim_names and attributes.
func ExampleParse() {
	data, err := os.ReadFile("testdata/attrs_dim_names.b2nd")
	if err != nil {
		panic(err)
	}
	f, err := Parse(data)
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Metalayer, f.NumpyDType, f.DType, f.Shape, f.ChunkShape, f.BlockShape)
	fmt.Println(f.DimNames, len(f.Chunks), "chunks")
	for _, k := range f.VLMetaNames {
		fmt.Printf("%s = %v\n", k, f.VLMeta[k])
	}
	// Output:
	// b2nd <f4 f32 [6 4 3] [4 3 2] [2 2 2]
	// [time station level] 8 chunks
	// dim_names = [time station level]
	// units = degC
	// scale = 0.5
	// levels_hpa = [1000 850 500]
}

// TestParseDir_notRegular: a chunk file that is a FIFO is refused without
// opening it (opening would block).
func TestParseDir_notRegular(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("testdata", "sparse_frame.b2nd")
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "00000003.chunk")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(p); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	_, err = ParseDir(dir)
	if !errors.Is(err, array.ErrNotRegular) {
		t.Fatalf("err = %v, want ErrNotRegular", err)
	}
}
