package memformat_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/array/arraytest"
	"github.com/tetsql/tetsql/internal/memformat"
)

var samplePath = filepath.Join("testdata", "sample.memarray")

// TestConformance holds the sample to the array contract and to the
// values the file states.
func TestConformance(t *testing.T) {
	t.Parallel()
	want := map[string]func(c []int64) float64{
		"t": func(c []int64) float64 {
			return []float64{1, 2, 3, 4.5, math.NaN(), math.Inf(-1)}[c[0]*3+c[1]]
		},
		"grid/ramp": func(c []int64) float64 { return float64(c[0]*7 + c[1]) },
		"u64":       func(c []int64) float64 { return []float64{0, 1, 9007199254740993, 18446744073709551615}[c[0]] },
		"i8":        func(c []int64) float64 { return []float64{-128, 0, 127}[c[0]] },
		"half":      func(c []int64) float64 { return float64(c[0]*4 + c[1]*2 + c[2]) },
	}
	arraytest.Check(t, func() (array.Source, error) {
		return memformat.Format.Open(samplePath, array.Options{})
	}, arraytest.Options{
		Arrays: []string{"t", "grid/ramp", "u64", "i8", "half", "empty"},
		Value: func(name string, c []int64) (float64, bool) {
			f, ok := want[name]
			if !ok {
				return 0, false
			}
			return f(c), true
		},
	})
}

func TestFormat(t *testing.T) {
	t.Parallel()
	head, err := os.ReadFile(samplePath)
	if err != nil {
		t.Fatal(err)
	}
	f := memformat.Format
	if f.Name() != "mem" || !f.Sniff(head) || !f.Sniff([]byte("tetsql-memarray 2\n")) || f.Sniff([]byte("TETR")) {
		t.Error("Name/Sniff")
	}
	src, err := f.Open(samplePath, array.Options{MaxChunkBytes: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Attrs()["title"] != "memformat sample" {
		t.Errorf("attrs %v", src.Attrs())
	}
	in := src.Arrays()[0].Info()
	if in.DimName(1) != "x" || in.Labels[0][1] != "b" || in.Labels[1] != nil || in.Attrs["units"] != "K" {
		t.Errorf("info %+v", in)
	}
	if _, err := src.Arrays()[0].ReadChunk(0, nil); !errors.Is(err, array.ErrTooLarge) {
		t.Errorf("16-byte chunk with a 4-byte limit: %v", err)
	}
	if _, err := src.Arrays()[1].ReadChunk(4, nil); !errors.Is(err, array.ErrMissingChunk) {
		t.Errorf("missing chunk: %v", err)
	}
	for _, p := range []string{t.TempDir(), filepath.Join(t.TempDir(), "none")} {
		if s, err := f.Open(p, array.Options{}); s != nil || err == nil {
			t.Errorf("Open(%s) = %v, %v", p, s, err)
		}
	}
	if _, err := f.Open(t.TempDir(), array.Options{}); !errors.Is(err, array.ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
}

// TestParse_errors: bad input is refused with the right sentinel and a
// message saying what is wrong, never a panic.
func TestParse_errors(t *testing.T) {
	t.Parallel()
	const m = memformat.Magic
	arr := func(fields string) string {
		return m + `{"arrays": [{"name": "a", "dtype": "u8", "shape": [2], "chunk_shape": [2]` + fields + `}]}`
	}
	for _, tc := range []struct {
		name, in string
		want     error
		msg      string
	}{
		{"empty", "", array.ErrCorrupt, "no"},
		{"other magic", "TETR", array.ErrCorrupt, "no"},
		{"version", "tetsql-memarray 2\n{}", array.ErrUnsupported, "want"},
		{"not JSON", m + "{", array.ErrCorrupt, "JSON"},
		{"unknown field", m + `{"arrayz": []}`, array.ErrCorrupt, "unknown field"},
		{"trailing", m + `{} {}`, array.ErrCorrupt, "after"},
		{"trailing garbage", m + `{} ]`, array.ErrCorrupt, "after"},
		{"no name", m + `{"arrays": [{"dtype": "u8", "shape": [1], "chunk_shape": [1], "values": [1]}]}`, array.ErrCorrupt, "name"},
		{"dtype", arr(`, "values": [1, 2], "dtype": "c64"`), array.ErrUnsupported, "dtype"},
		{"rank 0 without its value", m + `{"arrays": [{"name": "a", "dtype": "u8", "shape": [], "chunk_shape": []}]}`, array.ErrCorrupt, "0 values for 1"},
		{"rank 9", m + `{"arrays": [{"name": "a", "dtype": "u8", "shape": [1,1,1,1,1,1,1,1,1], "chunk_shape": [1,1,1,1,1,1,1,1,1], "generator": "zeros"}]}`, array.ErrUnsupported, "rank"},
		{"chunk 0", m + `{"arrays": [{"name": "a", "dtype": "u8", "shape": [2], "chunk_shape": [0], "values": [1, 2]}]}`, array.ErrCorrupt, "chunk size"},
		{"labels", arr(`, "values": [1, 2], "labels": [["x"]]`), array.ErrCorrupt, "labels"},
		{"dim names", arr(`, "values": [1, 2], "dim_names": ["x", "y"]`), array.ErrCorrupt, "dim names"},
		{"count", arr(`, "values": [1]`), array.ErrCorrupt, "1 values for 2"},
		{"no values", arr(``), array.ErrCorrupt, "0 values"},
		{"both", arr(`, "values": [1, 2], "generator": "ramp"`), array.ErrCorrupt, "both"},
		{"generator", arr(`, "generator": "sine"`), array.ErrUnsupported, "sine"},
		{"u8 range", arr(`, "values": [1, 256]`), array.ErrCorrupt, "value 1"},
		{"u8 negative", arr(`, "values": [-1, 2]`), array.ErrCorrupt, "value 0"},
		{"u8 fraction", arr(`, "values": [1.5, 2]`), array.ErrCorrupt, "value 0"},
		{"float string", m + `{"arrays": [{"name": "a", "dtype": "f32", "shape": [1], "chunk_shape": [1], "values": ["pi"]}]}`, array.ErrCorrupt, "pi"},
		{"f32 overflow", m + `{"arrays": [{"name": "a", "dtype": "f32", "shape": [1], "chunk_shape": [1], "values": [1e39]}]}`, array.ErrCorrupt, "overflows"},
		{"f16 overflow", m + `{"arrays": [{"name": "a", "dtype": "f16", "shape": [1], "chunk_shape": [1], "values": [70000]}]}`, array.ErrCorrupt, "overflows"},
		{"null value", arr(`, "values": [null, 2]`), array.ErrCorrupt, "value 0"},
		{"missing chunk", arr(`, "values": [1, 2], "missing_chunks": [1]`), array.ErrCorrupt, "missing chunk 1"},
		{"twice", m + `{"arrays": [{"name": "a", "dtype": "u8", "shape": [1], "chunk_shape": [1], "values": [1]}, {"name": "a", "dtype": "u8", "shape": [1], "chunk_shape": [1], "values": [1]}]}`, array.ErrCorrupt, "twice"},
		{"too big", m + `{"arrays": [{"name": "a", "dtype": "f64", "shape": [3000, 3000], "chunk_shape": [100, 100], "generator": "zeros"}]}`, array.ErrUnsupported, "more than"},
		{"overflow", m + `{"arrays": [{"name": "a", "dtype": "f64", "shape": [4294967296, 4294967296], "chunk_shape": [1, 1], "generator": "zeros"}]}`, array.ErrCorrupt, "overflows"},
	} {
		s, err := memformat.Parse([]byte(tc.in))
		if s != nil || !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, %v; want %v saying %q", tc.name, s, err, tc.want, tc.msg)
		}
	}
}

// FuzzParse: any input is refused with an error or gives arrays whose
// every chunk reads back at its declared size.
func FuzzParse(f *testing.F) {
	seed, err := os.ReadFile(samplePath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(memformat.Magic + `{"arrays": [{"name": "a", "dtype": "i32", "shape": [3, 0], "chunk_shape": [2, 1], "generator": "ramp"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := memformat.Parse(data)
		if err != nil {
			if src != nil {
				t.Fatal("a Source with an error")
			}
			return
		}
		defer src.Close()
		for _, tb := range src.(array.TableProvider).Tables() {
			_ = tb.Rows(func([]any) bool { return true }) // must not panic
		}
		for _, a := range src.Arrays() {
			in := a.Info()
			for id := range in.ChunkCount() {
				c, ok := a.Chunk(id)
				b, err := a.ReadChunk(id, nil)
				if ok != (err == nil) || (ok && int64(len(b)) != c.RawBytes) {
					t.Fatalf("array %q chunk %d: ok %v, %d bytes, %v", in.Name, id, ok, len(b), err)
				}
			}
		}
	})
}
