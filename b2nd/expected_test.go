package b2nd

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/array/arraytest"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// expectedFile is one record of an expected.json written by make.py or
// make_extra.py: the layout fields the parser tests use, plus the values
// every reader of the file must produce.
type expectedFile struct {
	fixture
	Dataset         string         `json:"dataset"`
	Group           string         `json:"group"`
	Lossy           bool           `json:"lossy"`
	ValuesUndefined bool           `json:"values_undefined"`
	Expected        expectedValues `json:"expected"`
}

// expectedValues is the "expected" object. Sums, extremes and probe values
// stay raw JSON: integers are compared exactly (u64 sums pass 2^64) and
// floats parsed as float64.
type expectedValues struct {
	Count    int64           `json:"count"`
	SHA256   string          `json:"sha256_c_order_le"`
	NaNCount int64           `json:"nan_count"`
	Sum      json.RawMessage `json:"sum"`
	Min      json.RawMessage `json:"min"`
	Max      json.RawMessage `json:"max"`
	SumAbs   float64         `json:"sum_abs"`
	Probes   []rawProbe      `json:"probes"`
}

// rawProbe is one probed cell; Value is null for NaN.
type rawProbe struct {
	Index []int64         `json:"index"`
	Value json.RawMessage `json:"value"`
}

// loadExpected reads dir/expected.json.
func loadExpected(t testing.TB, dir string) []expectedFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Files []expectedFile }
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s/expected.json: %v", dir, err)
	}
	return doc.Files
}

// TestExpectedValues opens every committed fixture through Format and
// checks everything expected.json says about it: metadata, every value
// (by hash), the aggregates, the probed cells, and the refusals.
func TestExpectedValues(t *testing.T) {
	files := loadExpected(t, "testdata")
	if len(files) < 50 {
		t.Fatalf("only %d fixtures in expected.json", len(files))
	}
	n := checkExpectedDir(t, "testdata", files, func(expectedFile) bool { return true })
	t.Logf("%d of %d fixtures checked value by value", n, len(files))
}

// checkExpectedDir runs checkExpected on every record of dir as subtests,
// with the conformance suite too on the files conform picks, and returns
// how many files had their values checked.
func checkExpectedDir(t *testing.T, dir string, files []expectedFile, conform func(expectedFile) bool) int {
	t.Helper()
	checked := 0
	for _, fx := range files {
		t.Run(strings.TrimSuffix(fx.File, ".b2nd"), func(t *testing.T) {
			ok := checkExpected(t, dir, fx)
			if ok && conform(fx) {
				t.Run("conformance", func(t *testing.T) { checkConformance(t, dir, fx) })
			}
			if ok && !t.Failed() && !fx.ValuesUndefined {
				checked++
			}
		})
	}
	return checked
}

// checkConformance runs arraytest.Check on a file Format opens, with the
// probed cells as the expected values.
func checkConformance(t *testing.T, dir string, fx expectedFile) {
	want := map[string]float64{}
	for _, p := range fx.Expected.Probes {
		v, err := probeFloat(p.Value)
		if err != nil {
			t.Fatalf("probe %v: %v", p.Index, err)
		}
		want[coordKey(p.Index)] = v
	}
	rank0 := len(fx.Shape) == 0
	path := filepath.Join(dir, fx.File)
	arraytest.Check(t, func() (array.Source, error) { return Format.Open(path, array.Options{}) }, arraytest.Options{
		Arrays: []string{fx.Dataset},
		Value: func(name string, coords []int64) (float64, bool) {
			if rank0 { // a 0-d array's one cell is probed with no coordinates
				coords = nil
			}
			v, ok := want[coordKey(coords)]
			return v, ok
		},
	})
}

func coordKey(c []int64) string {
	parts := make([]string, len(c))
	for i, x := range c {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(parts, ",")
}

// probeFloat is a probe value as float64 (null is NaN), as
// arraytest compares it with DType.Float64.
func probeFloat(raw json.RawMessage) (float64, error) {
	if isNull(raw) {
		return math.NaN(), nil
	}
	return strconv.ParseFloat(string(raw), 64)
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// TestSniff: every contiguous fixture's first SniffLen bytes are
// recognised, and heads that are not a Blosc2 frame are not.
func TestSniff(t *testing.T) {
	if Format.Name() != "b2nd" {
		t.Errorf("Name() = %q, want b2nd", Format.Name())
	}
	sniffed := 0
	for _, fx := range loadExpected(t, "testdata") {
		p := filepath.Join("testdata", fx.File)
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !Format.Sniff(data[:min(len(data), array.SniffLen)]) {
			t.Errorf("%s: Sniff = false on its first %d bytes", fx.File, array.SniffLen)
		}
		sniffed++
	}
	if sniffed < 45 {
		t.Errorf("only %d contiguous fixtures sniffed", sniffed)
	}
	// A chunk file of a sparse frame is a Blosc2 chunk, not a frame.
	chunkFile, err := os.ReadFile(filepath.Join("testdata", "sparse_frame.b2nd", "00000000.chunk"))
	if err != nil {
		t.Fatal(err)
	}
	var magic [10]byte
	copy(magic[:], blosc.Magic)
	for _, c := range []struct {
		name string
		head []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"magic cut short", magic[:9]},
		{"magic with one byte changed", append(append([]byte{}, magic[:7]...), 'X', 'e', 0, 0xd2)},
		{"text", []byte("b2frame\x00 is not at the start of this file")},
		{"zip", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00")},
		{"HDF5", []byte("\x89HDF\r\n\x1a\n\x00\x00\x00\x00")},
		{"zeros", make([]byte, array.SniffLen)},
		{"a Blosc2 chunk", chunkFile[:min(len(chunkFile), array.SniffLen)]},
	} {
		if Format.Sniff(c.head) {
			t.Errorf("Sniff(%s) = true", c.name)
		}
	}
	// A non-frame file given to Open anyway is refused, not misread.
	p := filepath.Join(t.TempDir(), "not_a_frame.b2nd")
	if err := os.WriteFile(p, []byte("PK\x03\x04 definitely not a Blosc2 frame, though long enough to hold a header......................................................................"), 0o644); err != nil {
		t.Fatal(err)
	}
	if src, err := Format.Open(p, array.Options{}); err == nil {
		src.Close()
		t.Error("Open of a non-frame file succeeded")
	} else if !errors.Is(err, array.ErrCorrupt) && !errors.Is(err, array.ErrUnsupported) && !errors.Is(err, array.ErrUnknownFormat) {
		t.Errorf("Open of a non-frame file: %v, want ErrCorrupt, ErrUnsupported or ErrUnknownFormat", err)
	}
}
