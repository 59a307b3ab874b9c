package b2nd

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"github.com/tetsql/tetsql/internal/codec/blosc"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// fixture is the part of testdata/expected.json (written by the fixture
// generator, make.py) that the frame parser can check.
type fixture struct {
	File        string         `json:"file"`
	Metalayer   string         `json:"metalayer"`
	NumpyDType  string         `json:"numpy_dtype"`
	DType       *string        `json:"dtype"`
	Shape       []int64        `json:"shape"`
	Chunks      []int64        `json:"chunks"`
	Blocks      []int64        `json:"blocks"`
	DimNames    []string       `json:"dim_names"`
	Attrs       map[string]any `json:"attrs"`
	ExpectError *string        `json:"expect_error"`
	OnDisk      struct {
		Frame          string         `json:"frame"`
		NChunks        int            `json:"nchunks"`
		SpecialOffsets map[string]int `json:"special_offsets"`
	} `json:"on_disk"`
}

func loadFixtures(t testing.TB) []fixture {
	t.Helper()
	raw, err := os.ReadFile("testdata/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Files []fixture }
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) < 50 {
		t.Fatalf("only %d fixtures in expected.json", len(doc.Files))
	}
	return doc.Files
}

// openFixture parses a fixture file or sparse-frame directory.
func openFixture(t testing.TB, name string) (*Frame, error) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return ParseDir(p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return Parse(data)
}

// TestFixtures parses every fixture and checks what expected.json records
// about its layout, dtype, attributes and chunks.
func TestFixtures(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		t.Run(strings.TrimSuffix(fx.File, ".b2nd"), func(t *testing.T) {
			f, err := openFixture(t, fx.File)
			if fx.ExpectError != nil {
				if err == nil || !strings.Contains(err.Error(), *fx.ExpectError) || !errors.Is(err, array.ErrUnsupported) {
					t.Fatalf("err = %v, want ErrUnsupported naming %q", err, *fx.ExpectError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkFixture(t, fx, f)
		})
	}
}

func checkFixture(t *testing.T, fx fixture, f *Frame) {
	t.Helper()
	if f.Metalayer != fx.Metalayer || f.DType.String() != *fx.DType {
		t.Errorf("metalayer %s dtype %v, want %s %s", f.Metalayer, f.DType, fx.Metalayer, *fx.DType)
	}
	if fx.Metalayer == "b2nd" && f.NumpyDType != fx.NumpyDType {
		t.Errorf("numpy dtype %q, want %q", f.NumpyDType, fx.NumpyDType)
	}
	if f.BigEndian != strings.HasPrefix(fx.NumpyDType, ">") {
		t.Errorf("BigEndian %v for %q", f.BigEndian, fx.NumpyDType)
	}
	for _, c := range []struct {
		name      string
		got, want []int64
	}{{"shape", f.Shape, fx.Shape}, {"chunks", f.ChunkShape, fx.Chunks}, {"blocks", f.BlockShape, fx.Blocks}} {
		if len(c.got) != len(c.want) || (len(c.got) > 0 && !reflect.DeepEqual(c.got, c.want)) {
			t.Errorf("%s %v, want %v", c.name, c.got, c.want)
		}
	}
	if !reflect.DeepEqual(f.DimNames, fx.DimNames) {
		t.Errorf("dim names %q, want %q", f.DimNames, fx.DimNames)
	}
	// Compare attributes through JSON, as the SQL layer will show them.
	js, err := json.Marshal(f.VLMeta)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(fx.Attrs) || (len(got) > 0 && !reflect.DeepEqual(got, fx.Attrs)) {
		t.Errorf("attrs %v, want %v", got, fx.Attrs)
	}
	if len(f.VLMetaNames) != len(f.VLMeta) {
		t.Errorf("attr names %q for %d attrs", f.VLMetaNames, len(f.VLMeta))
	}
	if f.Sparse != (fx.OnDisk.Frame == "sparse") || len(f.Chunks) != fx.OnDisk.NChunks {
		t.Errorf("sparse %v with %d chunks, want %s with %d", f.Sparse, len(f.Chunks), fx.OnDisk.Frame, fx.OnDisk.NChunks)
	}
	special := map[string]int{}
	for i, c := range f.Chunks {
		if c.Kind != blosc.ChunkStored {
			special[c.Kind.String()]++
			continue
		}
		b, err := f.ReadChunk(i)
		if err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		if int64(len(b)) < 16 || int64(binary.LittleEndian.Uint32(b[4:])) != f.ChunkSize || int64(binary.LittleEndian.Uint32(b[12:])) != int64(len(b)) {
			t.Errorf("chunk %d: %d bytes, header does not match", i, len(b))
		}
	}
	if len(special) != len(fx.OnDisk.SpecialOffsets) || (len(special) > 0 && !reflect.DeepEqual(special, fx.OnDisk.SpecialOffsets)) {
		t.Errorf("special chunks %v, want %v", special, fx.OnDisk.SpecialOffsets)
	}
}

type probe struct {
	Index []int64  `json:"index"`
	Value *float64 `json:"value"`
}

// memcpyedProbes returns the probe cells expected.json gives for the
// memcpyed fixture.
func memcpyedProbes(t *testing.T) []probe {
	raw, err := os.ReadFile("testdata/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []struct {
			File     string
			Expected struct{ Probes []probe }
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, f := range doc.Files {
		if f.File == "memcpyed.b2nd" && len(f.Expected.Probes) > 0 {
			return f.Expected.Probes
		}
	}
	t.Fatal("no probes for memcpyed.b2nd")
	return nil
}

func f32At(b []byte, i int64) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
}
