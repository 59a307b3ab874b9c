package tetcore_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// expectedFile is the sidecar JSON written next to each interop file by
// scripts/interop/make_interop.py (see testdata/interop/README.md).
type expectedFile struct {
	File     string `json:"file"`
	FileSize int64  `json:"file_size"`
	BPS      uint16 `json:"memory_budget_percent_bps"`
	Bytes    uint32 `json:"memory_budget_bytes"`
	History  []struct {
		Op      string            `json:"op"`
		Source  string            `json:"source"`
		At      string            `json:"at"`
		Parents []string          `json:"parents"`
		Params  map[string]string `json:"params"`
	} `json:"history"`
	FileMeta map[string]string `json:"file_metadata"`
	Datasets []struct {
		Name       string            `json:"name"`
		DType      string            `json:"dtype"`
		Shape      []int64           `json:"shape"`
		ChunkShape []int64           `json:"chunk_shape"`
		DimNames   []string          `json:"dim_names"`
		Labels     [][]string        `json:"labels"`
		Attrs      map[string]string `json:"attrs"`
		Values     []string          `json:"values"`
		Bits       []string          `json:"bits"`
		Chunks     []struct {
			Index  []int64 `json:"index"`
			Codec  string  `json:"codec"`
			Raw    int64   `json:"raw_byte_len"`
			Stored int64   `json:"stored_byte_len"`
		} `json:"chunks"`
	} `json:"datasets"`
}

func TestInterop_tetPyFiles(t *testing.T) {
	t.Parallel()
	sidecars, _ := filepath.Glob(filepath.Join("..", "testdata", "interop", "*.expected.json"))
	if len(sidecars) < 5 {
		t.Fatalf("found %d interop sidecars", len(sidecars))
	}
	for _, sc := range sidecars {
		raw, err := os.ReadFile(sc)
		if err != nil {
			t.Fatal(err)
		}
		var exp expectedFile
		if err := json.Unmarshal(raw, &exp); err != nil {
			t.Fatalf("%s: %v", sc, err)
		}
		t.Run(exp.File, func(t *testing.T) {
			checkInteropFile(t, filepath.Join("..", "testdata", "interop", exp.File), &exp)
		})
	}
}

func checkInteropFile(t *testing.T, path string, exp *expectedFile) {
	f, err := tetcore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.FooterStatus() != "ok" {
		t.Errorf("footer %q", f.FooterStatus())
	}
	if f.Size() != exp.FileSize || f.MemoryBudgetBPS != exp.BPS || f.MemoryBudgetBytes != exp.Bytes {
		t.Errorf("size %d budget %d/%d", f.Size(), f.MemoryBudgetBPS, f.MemoryBudgetBytes)
	}
	if len(f.Footer.History) != len(exp.History) {
		t.Fatalf("history %+v", f.Footer.History)
	}
	for i, h := range exp.History {
		g := f.Footer.History[i]
		if g.Op != h.Op || g.Source != h.Source || g.At != h.At || !reflect.DeepEqual(g.Parents, h.Parents) ||
			(len(h.Params) > 0 && !reflect.DeepEqual(g.Params, h.Params)) {
			t.Errorf("history %d: %+v, want %+v", i, g, h)
		}
	}
	if exp.FileMeta != nil && !reflect.DeepEqual(f.Footer.FileMeta, exp.FileMeta) {
		t.Errorf("file meta %v, want %v", f.Footer.FileMeta, exp.FileMeta)
	}
	if len(f.Datasets) != len(exp.Datasets) {
		t.Fatalf("%d datasets, want %d", len(f.Datasets), len(exp.Datasets))
	}
	for _, e := range exp.Datasets {
		ds, err := f.Dataset(e.Name)
		if err != nil {
			t.Fatal(err)
		}
		if ds.DType.String() != e.DType || !reflect.DeepEqual(ds.Shape, e.Shape) || !reflect.DeepEqual(ds.ChunkShape, e.ChunkShape) {
			t.Errorf("%s: %s %v %v", e.Name, ds.DType, ds.Shape, ds.ChunkShape)
		}
		if e.DimNames != nil && !reflect.DeepEqual(ds.DimNames, e.DimNames) {
			t.Errorf("%s: dim names %v, want %v", e.Name, ds.DimNames, e.DimNames)
		}
		for a, l := range e.Labels {
			var got []string
			if ds.Labels != nil {
				got = ds.Labels[a]
			}
			if !reflect.DeepEqual(got, l) {
				t.Errorf("%s: axis %d labels %v, want %v", e.Name, a, got, l)
			}
		}
		if len(e.Attrs) > 0 && !reflect.DeepEqual(ds.Attrs, e.Attrs) {
			t.Errorf("%s: attrs %v, want %v", e.Name, ds.Attrs, e.Attrs)
		}
		if len(ds.Chunks()) != len(e.Chunks) {
			t.Errorf("%s: %d chunks, want %d", e.Name, len(ds.Chunks()), len(e.Chunks))
		}
		for i, c := range e.Chunks {
			if i >= len(ds.Chunks()) {
				break
			}
			g := ds.Chunks()[i]
			if !reflect.DeepEqual(g.Coords[:ds.Rank()], c.Index) || g.Codec.String() != c.Codec || g.RawLen != c.Raw || g.StoredLen != c.Stored {
				t.Errorf("%s chunk %d: %+v, want %+v", e.Name, i, g, c)
			}
		}
		data := assemble(t, f, ds)
		if int64(len(e.Values)) != ds.Elements() {
			t.Fatalf("%s: %d expected values for %d elements", e.Name, len(e.Values), ds.Elements())
		}
		for i := range e.Values {
			if got, want := elementString(ds.DType, data, i), expectedString(ds.DType, e.Values, e.Bits, i); got != want {
				t.Errorf("%s[%d] = %s, want %s", e.Name, i, got, want)
			}
		}
	}
}

// elementString renders element i exactly: float bits in hex, integers
// in decimal.
func elementString(dt tetcore.DType, data []byte, i int) string {
	switch dt {
	case tetcore.F16:
		return fmt.Sprintf("0x%04x", uint16(data[2*i])|uint16(data[2*i+1])<<8)
	case tetcore.F32: // raw bits: a float64 round trip would quiet NaNs
		return fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(data[4*i:]))
	case tetcore.F64:
		return fmt.Sprintf("0x%016x", math.Float64bits(dt.Float64(data, i)))
	case tetcore.U64:
		return strconv.FormatUint(dt.Uint64(data, i), 10)
	}
	return strconv.FormatInt(dt.Int64(data, i), 10)
}

func expectedString(dt tetcore.DType, values, bits []string, i int) string {
	if dt.IsFloat() {
		return bits[i]
	}
	return values[i]
}
