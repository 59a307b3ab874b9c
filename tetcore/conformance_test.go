package tetcore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/array/arraytest"
	"github.com/tetsql/tetsql/tetcore"
)

// TestConformance runs the array conformance test on every .tet file of
// the repository's testdata and on the sample files written here, with
// the expected values where the fixture states them.
func TestConformance(t *testing.T) {
	t.Parallel()
	type fixture struct {
		path string
		o    arraytest.Options
	}
	// The reference files hold 1, 2, …, 6 in row-major order.
	ramp := func(name string, c []int64) (float64, bool) { return float64(c[0]*3 + c[1] + 1), true }
	var files []fixture
	for _, n := range []string{"sample", "multichunk_u8", "multichunk_u32", "plan"} {
		files = append(files, fixture{filepath.Join("..", "testdata", "reference", n+".tet"), arraytest.Options{Value: ramp}})
	}
	files = append(files, fixture{path: filepath.Join("..", "testdata", "demo.tet"), o: arraytest.Options{
		Arrays: []string{"temperature", "pressure", "elevation", "location"}}})
	sidecars, _ := filepath.Glob(filepath.Join("..", "testdata", "interop", "*.expected.json"))
	for _, sc := range sidecars {
		exp := readExpected(t, sc)
		files = append(files, fixture{filepath.Join("..", "testdata", "interop", exp.File), arraytest.Options{Value: interopValue(exp)}})
	}
	dir := t.TempDir()
	for _, meta := range []bool{false, true} {
		s := buildSample(t, meta)
		p := filepath.Join(dir, "sample_"+strconv.FormatBool(meta)+".tet")
		if err := os.WriteFile(p, s.data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, fixture{path: p})
	}
	if len(files) < 12 {
		t.Fatalf("only %d fixtures found", len(files))
	}
	for _, fx := range files {
		t.Run(filepath.Base(fx.path), func(t *testing.T) {
			t.Parallel()
			fx.o.Reference = slowReader(t, fx.path)
			arraytest.Check(t, func() (array.Source, error) {
				return tetcore.Format.Open(fx.path, array.Options{})
			}, fx.o)
		})
	}
}

// slowReader decodes a chunk the slow way: a file read with os.ReadFile,
// parsed from bytes, the payload copied (raw) or decoded by a decoder of
// its own without limits (zstd).
func slowReader(t *testing.T, path string) func(name string, id int64) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := tetcore.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dec.Close)
	return func(name string, id int64) ([]byte, error) {
		ds, err := f.Dataset(name)
		if err != nil {
			return nil, err
		}
		c, ok := ds.Chunk(id)
		if !ok {
			return nil, tetcore.ErrMissingChunk
		}
		stored := data[c.Offset : c.Offset+uint64(c.StoredLen)]
		if c.Codec == tetcore.CodecRaw {
			return append([]byte(nil), stored...), nil
		}
		return dec.DecodeAll(stored, nil)
	}
}

func readExpected(t *testing.T, path string) *expectedFile {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var exp expectedFile
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &exp
}

// interopValue gives the sidecar's value of an element. The sidecar
// writes the shortest text that names the value in its own dtype (and NaN
// and infinities as Python does, which ParseFloat reads), so floats are
// rounded to their dtype again.
func interopValue(exp *expectedFile) func(string, []int64) (float64, bool) {
	return func(name string, c []int64) (float64, bool) {
		for _, d := range exp.Datasets {
			if d.Name != name || len(d.Values) == 0 {
				continue
			}
			var l int64
			for i, s := range d.Shape {
				l = l*s + c[i]
			}
			switch d.DType {
			case "f32", "f16":
				v, err := strconv.ParseFloat(d.Values[l], 32)
				if d.DType == "f16" {
					return float64(tetcore.HalfToFloat32(tetcore.Float32ToHalf(float32(v)))), err == nil
				}
				return float64(float32(v)), err == nil
			}
			v, err := strconv.ParseFloat(d.Values[l], 64)
			return v, err == nil
		}
		return 0, false
	}
}
