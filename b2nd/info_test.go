package b2nd

import (
	"math"
	"reflect"
	"testing"

	"github.com/tetsql/tetsql/array"
)

func TestInfo(t *testing.T) {
	f, err := openFixture(t, "attrs_dim_names.b2nd")
	if err != nil {
		t.Fatal(err)
	}
	in, err := f.Info("attrs_dim_names")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"dim_names": `["time","station","level"]`, "units": `"degC"`,
		"scale": `0.5`, "levels_hpa": `[1000,850,500]`}
	if !reflect.DeepEqual(in.Attrs, want) {
		t.Errorf("attrs %q, want %q", in.Attrs, want)
	}
	if in.DType != array.F32 || !reflect.DeepEqual(in.Shape, []int64{6, 4, 3}) || !reflect.DeepEqual(in.ChunkShape, []int64{4, 3, 2}) ||
		!reflect.DeepEqual(in.DimNames, []string{"time", "station", "level"}) || in.ChunkCount() != 8 {
		t.Errorf("info %+v", in)
	}
	// A 0-d array: one element in one chunk, no axes.
	f, err = openFixture(t, "rank0.b2nd")
	if err != nil {
		t.Fatal(err)
	}
	in, err = f.Info("rank0")
	if err != nil || in.Rank() != 0 || in.Elements() != 1 || in.ChunkCount() != 1 || len(in.Grid()) != 0 {
		t.Errorf("rank 0: %+v, %v; want one element in one chunk", in, err)
	}
}

func TestJSONable(t *testing.T) {
	in := map[string]any{"b": []byte{0xde, 0xad}, "f": []any{math.NaN(), math.Inf(1), math.Inf(-1), 1.5}}
	want := map[string]any{"b": "dead", "f": []any{"NaN", "Infinity", "-Infinity", 1.5}}
	if got := jsonable(in); !reflect.DeepEqual(got, want) {
		t.Errorf("jsonable = %v, want %v", got, want)
	}
}

// TestInfo_chunkOrder: array.Info numbers chunks as the frame's index
// does (row-major grid), so chunk id i of the array is f.Chunks[i]: the
// first element of every chunk box locates to that chunk at element 0.
func TestInfo_chunkOrder(t *testing.T) {
	for _, name := range []string{"rank3.b2nd", "dtype_float32.b2nd", "attrs_dim_names.b2nd"} {
		f, err := openFixture(t, name)
		if err != nil {
			t.Fatal(err)
		}
		in, err := f.Info(name)
		if err != nil {
			t.Fatal(err)
		}
		start, extent := make([]int64, in.Rank()), make([]int64, in.Rank())
		for id := range in.ChunkCount() {
			in.ChunkBox(id, start, extent)
			c, e, err := f.Locate(start)
			if err != nil || c != id || e != 0 {
				t.Errorf("%s: chunk %d starts at %v, located in chunk %d element %d (%v)", name, id, start, c, e, err)
			}
		}
	}
}
