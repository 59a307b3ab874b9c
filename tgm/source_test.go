package tgm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/array/arraytest"
)

// datasetDoc is the datasets part of expected.json (see
// testdata/README.md): per file, the SQL datasets with their members and
// the statistics over the whole dataset.
type datasetDoc struct {
	Files []struct {
		File     string            `json:"file"`
		Datasets []expectedDataset `json:"datasets"`
	} `json:"files"`
}

type expectedDataset struct {
	Name    string   `json:"name"`
	Stacked bool     `json:"stacked"`
	DType   string   `json:"dtype"`
	Shape   []int64  `json:"shape"`
	Members [][2]int `json:"members"`
	expectedValues
}

// loadDatasets reads the datasets of dir/expected.json.
func loadDatasets(t testing.TB, dir string) datasetDoc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc datasetDoc
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil || len(doc.Files) == 0 {
		t.Fatalf("expected.json: %v, %d files", err, len(doc.Files))
	}
	return doc
}

// mapped reports whether a Tensogram dtype has a SQL mapping.
func mapped(dtype string) bool { return !strings.HasPrefix(dtype, "complex") }

// TestSourceDatasets opens every fixture as an array source and holds
// its datasets to expected.json: names in order, shape, the message
// axis, members, element type, and the statistics and probes of the
// whole dataset read chunk by chunk. Complex objects belong to no
// dataset and are listed in the "unmapped" attribute.
func TestSourceDatasets(t *testing.T) { checkDatasetsDir(t, "testdata") }

// checkDatasetsDir runs the dataset checks on the files of dir.
func checkDatasetsDir(t *testing.T, dir string) {
	for _, f := range loadDatasets(t, dir).Files {
		t.Run(strings.TrimSuffix(f.File, ".tgm"), func(t *testing.T) {
			s, err := Open(filepath.Join(dir, f.File), array.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var want []string
			for _, ed := range f.Datasets {
				if !mapped(ed.DType) {
					if !strings.Contains(s.Attrs()["unmapped"], "("+ed.Name+"): dtype "+ed.DType) {
						t.Errorf("unmapped %q does not name %s (%s)", s.Attrs()["unmapped"], ed.Name, ed.DType)
					}
					continue
				}
				want = append(want, ed.Name)
			}
			var got []string
			for _, a := range s.Arrays() {
				got = append(got, a.Info().Name)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("datasets %v, want %v", got, want)
			}
			for i, a := range s.Arrays() {
				checkDataset(t, s, a.(*Dataset), f.Datasets[i])
			}
		})
	}
}

// checkDataset compares one dataset with its expectation.
func checkDataset(t *testing.T, s *Source, d *Dataset, ed expectedDataset) {
	t.Helper()
	in := d.Info()
	if !slices.Equal(in.Shape, ed.Shape) || d.stacked != ed.Stacked || (in.Rank() > 0 && (in.DimName(0) == "message") != ed.Stacked) {
		t.Errorf("%s: shape %v stacked %v dims %v; want %v %v", ed.Name, in.Shape, d.stacked, in.DimNames, ed.Shape, ed.Stacked)
	}
	var members [][2]int
	for _, o := range d.Objects() {
		members = append(members, [2]int{o.Message, o.Index})
		if typ, _ := o.Type(); typ != in.DType {
			t.Errorf("%s: dtype %s, its object %d/%d decodes to %s", ed.Name, in.DType, o.Message, o.Index, typ)
		}
		if s.place[o].ds != d {
			t.Errorf("%s: object %d/%d placed in another dataset", ed.Name, o.Message, o.Index)
		}
	}
	if !reflect.DeepEqual(members, ed.Members) {
		t.Errorf("%s: members %v, want %v", ed.Name, members, ed.Members)
	}
	var all []byte
	for id := range in.ChunkCount() {
		b, err := d.ReadChunk(id, nil)
		if err != nil {
			t.Fatalf("%s chunk %d: %v", ed.Name, id, err)
		}
		ci, ok := d.Chunk(id)
		if !ok || ci.RawBytes != int64(len(b)) || ci.Offset != d.objs[id].FrameOffset || ci.Codec == "" {
			t.Errorf("%s chunk %d: %+v for %d bytes", ed.Name, id, ci, len(b))
		}
		all = append(all, b...)
	}
	checkValues(t, ed.Name, in.DType, all, ed.expectedValues)
}

// TestSourceConformance runs the array conformance test on every fixture
// that opens, with the probed elements as expected values.
func TestSourceConformance(t *testing.T) { checkConformanceDir(t, "testdata") }

// checkConformanceDir runs the conformance test on the files of dir.
func checkConformanceDir(t *testing.T, dir string) {
	for _, f := range loadDatasets(t, dir).Files {
		probes := map[string]float64{}
		for _, ed := range f.Datasets {
			shape := ed.Shape
			for _, p := range ed.Probes {
				probes[ed.Name+fmt.Sprint(unravel(p.RowID, shape))] = probeFloat(p.Value)
			}
		}
		t.Run(strings.TrimSuffix(f.File, ".tgm"), func(t *testing.T) {
			path := filepath.Join(dir, f.File)
			arraytest.Check(t, func() (array.Source, error) { return Format.Open(path, array.Options{}) }, arraytest.Options{
				Value: func(name string, coords []int64) (float64, bool) {
					v, ok := probes[name+fmt.Sprint(coords)]
					return v, ok
				},
			})
		})
	}
}

// unravel is the C-order coordinates of linear index i in shape.
func unravel(i int64, shape []int64) []int64 {
	c := make([]int64, len(shape))
	for a := len(shape) - 1; a >= 0; a-- {
		c[a] = i % shape[a]
		i /= shape[a]
	}
	return c
}

// probeFloat is an expected probe value as a float64 (null is NaN).
func probeFloat(v any) float64 {
	switch x := v.(type) {
	case nil:
		return math.NaN()
	case string:
		if x == "-inf" {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case json.Number:
		f, _ := x.Float64()
		return f
	}
	return math.NaN()
}

// TestSourceRefusals opens the refuse_* fixtures: truncated and lying
// files fail at Open; a flipped byte opens and fails reading its object
// with a hash mismatch (and the quick Verify reports it); an unsupported
// compression fails reading that object, naming it, while dataset ok
// reads.
func TestSourceRefusals(t *testing.T) {
	open := func(name string) (*Source, error) {
		return Open(filepath.Join("testdata", name), array.Options{})
	}
	for _, name := range []string{"refuse_truncated.tgm", "refuse_lying_frame.tgm"} {
		if s, err := open(name); err == nil {
			s.Close()
			t.Errorf("%s opened", name)
		} else if !errors.Is(err, array.ErrCorrupt) && !errors.Is(err, array.ErrTruncated) {
			t.Errorf("%s: %v", name, err)
		}
	}
	s, err := open("refuse_badhash.tgm")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Arrays()[0].ReadChunk(0, nil); !errors.Is(err, array.ErrCorrupt) || !strings.Contains(err.Error(), "hash mismatch") {
		t.Errorf("badhash read: %v", err)
	}
	fs, err := s.Verify(false, 0)
	if err != nil || len(fs) != 1 || fs[0].Severity != "error" || !strings.Contains(fs[0].Message, "hash") || fs[0].Array == "" {
		t.Errorf("badhash verify: %+v, %v", fs, err)
	}
	for _, codec := range []string{"szip", "zfp", "sz3"} {
		s, err := open("refuse_" + codec + ".tgm")
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]array.Array{}
		for _, a := range s.Arrays() {
			byName[a.Info().Name] = a
		}
		if b, err := byName["ok"].ReadChunk(0, nil); err != nil || len(b) != 48 || array.F64.Float64(b, 5) != 5 {
			t.Errorf("%s: ok: %v", codec, err)
		}
		if _, err := byName["packed"].ReadChunk(0, nil); !errors.Is(err, array.ErrUnsupported) || !strings.Contains(err.Error(), codec) {
			t.Errorf("%s: packed: %v", codec, err)
		}
		if fs, err := s.Verify(true, 0); err != nil || len(fs) != 1 || !strings.Contains(fs[0].Message, codec) || fs[0].Array != "packed" {
			t.Errorf("%s: deep verify %+v, %v", codec, fs, err)
		}
		s.Close()
	}
}
