package tgm

import (
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/array/arraytest"
	"github.com/tetsql/tetsql/internal/mapfile"
)

// tobj is one object of a built test message: its base entry and
// descriptor, float64 values raw unless the dtype says otherwise.
type tobj struct {
	base  map[string]any
	shape []int
	dtype string
	vals  []float64
}

// buildFile writes messages of the given objects.
func buildFile(t *testing.T, msgs ...[]tobj) []byte {
	var file []byte
	for _, objs := range msgs {
		var base []any
		frames := []tframe{{}}
		for _, o := range objs {
			base = append(base, o.base)
			payload := f64le(o.vals...)
			if o.dtype == "complex64" {
				payload = make([]byte, 8*len(o.vals))
			}
			frames = append(frames, objectFrame(t, desc(o.shape, o.dtype), payload, true))
		}
		frames[0] = metaFrame(t, FrameHeaderMetadata, map[string]any{"base": base}, true)
		file = append(file, message(frames, false, 0)...)
	}
	return file
}

// TestDatasetsNaming: names that do not stack get <name>_m<message>,
// _o<object> when repeated inside a message, _2 when that clashes with
// another name; stacked names keep theirs; scalars stack to [messages];
// dim_names apply only when every object gives the same distinct list;
// attributes are the metadata keys equal in every stacked object;
// complex objects are in no dataset.
func TestDatasetsNaming(t *testing.T) {
	n := func(name string, kv ...any) map[string]any {
		m := map[string]any{"name": name}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	data := buildFile(t, []tobj{
		{n("a"), []int{2}, "float64", []float64{1, 2}},
		{n("a"), []int{2}, "float64", []float64{3, 4}},
		{n("a_m0", "units", "K"), []int{1}, "float64", []float64{5}},
		{n("s"), []int{}, "float64", []float64{6}},
		{n("q", "dim_names", []any{"lat", "lon"}), []int{1, 2}, "float64", []float64{7, 8}},
		{n("dup", "dim_names", []any{"x", "x"}), []int{1, 2}, "float64", []float64{9, 10}},
		{n("c"), []int{1}, "complex64", []float64{0}},
	}, []tobj{
		{n("a"), []int{2}, "float64", []float64{11, 12}},
		{n("a_m0", "units", "Pa"), []int{1}, "float64", []float64{13}},
		{n("s"), []int{}, "float64", []float64{14}},
		{n("q", "dim_names", []any{"lat", "lon2"}), []int{1, 2}, "float64", []float64{15, 16}},
		{n("dup", "dim_names", []any{"x", "x"}), []int{1, 2}, "float64", []float64{17, 18}},
		{n("c"), []int{1}, "complex64", []float64{0}},
		{n("a_m1"), []int{1}, "float64", []float64{19}},
		{n("z0"), []int{}, "float64", []float64{20}},
	})
	s, err := newSource(mapfile.FromBytes(data), "built.tgm", array.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []struct {
		name  string
		shape []int64
		dims  []string
		vals  []float64
		attrs map[string]string
	}{
		{"a_m0_o0", []int64{2}, nil, []float64{1, 2}, map[string]string{"name": `"a"`}},
		{"a_m0_o1", []int64{2}, nil, []float64{3, 4}, map[string]string{"name": `"a"`}},
		{"a_m1_2", []int64{2}, nil, []float64{11, 12}, map[string]string{"name": `"a"`}},
		{"a_m0", []int64{2, 1}, []string{"message", "d0"}, []float64{5, 13}, map[string]string{"name": `"a_m0"`}},
		{"s", []int64{2}, []string{"message"}, []float64{6, 14}, map[string]string{"name": `"s"`}},
		{"q", []int64{2, 1, 2}, []string{"message", "d0", "d1"}, []float64{7, 8, 15, 16}, map[string]string{"name": `"q"`}},
		{"dup", []int64{2, 1, 2}, []string{"message", "d0", "d1"}, []float64{9, 10, 17, 18},
			map[string]string{"name": `"dup"`, "dim_names": `["x","x"]`}},
		{"a_m1_m1", []int64{1}, nil, []float64{19}, map[string]string{"name": `"a_m1"`}},
		{"z0_m1", []int64{}, nil, []float64{20}, map[string]string{"name": `"z0"`}},
	}
	arrays := s.Arrays()
	if len(arrays) != len(want) {
		var names []string
		for _, a := range arrays {
			names = append(names, a.Info().Name)
		}
		t.Fatalf("datasets %v, want %d", names, len(want))
	}
	for i, w := range want {
		in := arrays[i].Info()
		if in.Name != w.name || !slices.Equal(in.Shape, w.shape) || !slices.Equal(in.DimNames, w.dims) {
			t.Errorf("dataset %d: %s %v %v, want %s %v %v", i, in.Name, in.Shape, in.DimNames, w.name, w.shape, w.dims)
		}
		if len(in.Attrs) != len(w.attrs) {
			t.Errorf("%s: attrs %v, want %v", in.Name, in.Attrs, w.attrs)
		}
		for k, v := range w.attrs {
			if in.Attrs[k] != v {
				t.Errorf("%s: attrs %v, want %v", in.Name, in.Attrs, w.attrs)
			}
		}
		var got []float64
		for id := range in.ChunkCount() {
			b, err := arrays[i].ReadChunk(id, nil)
			if err != nil {
				t.Fatal(err)
			}
			for j := range len(b) / 8 {
				got = append(got, array.F64.Float64(b, j))
			}
		}
		if !slices.Equal(got, w.vals) {
			t.Errorf("%s: values %v, want %v", in.Name, got, w.vals)
		}
	}
	if u := s.Attrs()["unmapped"]; strings.Count(u, "complex64") != 2 {
		t.Errorf("unmapped %q, want both complex objects", u)
	}
	arraytest.Check(t, func() (array.Source, error) {
		return newSource(mapfile.FromBytes(data), "built.tgm", array.Options{})
	}, arraytest.Options{})
}

// TestDatasetsRank: an object of rank array.MaxRank has no room for the
// message axis and is its own dataset; one of a higher rank is in no
// dataset (named in "unmapped" and a verify warning) and the rest of the
// file reads.
func TestDatasetsRank(t *testing.T) {
	ones := func(n int) []int { return slices.Repeat([]int{1}, n) }
	data := buildFile(t, []tobj{
		{map[string]any{"name": "r8"}, ones(array.MaxRank), "float64", []float64{1}},
		{map[string]any{"name": "r9"}, ones(array.MaxRank + 1), "float64", []float64{2}},
		{map[string]any{"name": "v"}, []int{1}, "float64", []float64{3}},
	})
	s, err := newSource(mapfile.FromBytes(data), "rank.tgm", array.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var names []string
	for _, a := range s.Arrays() {
		names = append(names, a.Info().Name)
	}
	if !slices.Equal(names, []string{"r8_m0", "v"}) || s.Arrays()[0].Info().Rank() != array.MaxRank {
		t.Errorf("datasets %v", names)
	}
	if u := s.Attrs()["unmapped"]; !strings.Contains(u, "(r9)") || !strings.Contains(u, "rank 9") {
		t.Errorf("unmapped %q", u)
	}
	fs, err := s.Verify(true, 0)
	if err != nil || len(fs) != 1 || fs[0].Severity != "warning" || !strings.Contains(fs[0].Message, "r9") {
		t.Errorf("verify: %+v, %v", fs, err)
	}
	if b, err := s.Arrays()[1].ReadChunk(0, nil); err != nil || array.F64.Float64(b, 0) != 3 {
		t.Errorf("v: %v", err)
	}
}
