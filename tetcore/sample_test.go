package tetcore_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// sample is a small multi-dataset file (a few KB) and where its fields
// are, found by walking the bytes independently of tetcore.
type sample struct {
	data       []byte
	sets       []genDataset
	records    []int // offset of each directory record
	index      int   // chunk_index_offset
	entries    int   // entry_count
	payloadEnd int   // end of the last payload (= footer start)
}

func (s *sample) entry(i int) int { return s.index + 32 + i*104 }

// clone returns a copy of the file bytes to patch.
func (s *sample) clone() []byte { return bytes.Clone(s.data) }

// sampleSets returns four datasets, u8 first so that later payloads start
// at odd offsets: u8 raw, f32 zstd, i64 raw, f16 zstd, all with edge
// chunks. With meta, they carry dim names, labels and attrs.
func sampleSets(meta bool) []genDataset {
	u8 := make([]byte, 5*7)
	for i := range u8 {
		u8[i] = byte(i*7 + 3)
	}
	f32 := make([]byte, 6*5*4)
	for i := 0; i < 30; i++ {
		binary.LittleEndian.PutUint32(f32[4*i:], math.Float32bits(float32(math.Sin(float64(i)/5))*100))
	}
	i64 := make([]byte, 9*8)
	for i, v := range []int64{math.MinInt64, -1, 0, 1, math.MaxInt64, 1 << 53, -(1 << 53) - 1, 42, -42} {
		binary.LittleEndian.PutUint64(i64[8*i:], uint64(v))
	}
	f16 := make([]byte, 3*4*2*2)
	for i := 0; i < 24; i++ {
		binary.LittleEndian.PutUint16(f16[2*i:], tetcore.Float32ToHalf(float32(i)*0.25-3))
	}
	sets := []genDataset{
		{tetcore.DatasetSpec{Name: "grp/u8", DType: tetcore.U8, Shape: []int64{5, 7}, ChunkShape: []int64{2, 3}, Codec: tetcore.CodecRaw}, u8},
		{tetcore.DatasetSpec{Name: "f32", DType: tetcore.F32, Shape: []int64{6, 5}, ChunkShape: []int64{4, 4}, Codec: tetcore.CodecZstd}, f32},
		{tetcore.DatasetSpec{Name: "i64", DType: tetcore.I64, Shape: []int64{9}, ChunkShape: []int64{4}, Codec: tetcore.CodecRaw}, i64},
		{tetcore.DatasetSpec{Name: "half/f16", DType: tetcore.F16, Shape: []int64{3, 4, 2}, ChunkShape: []int64{2, 3, 2}, Codec: tetcore.CodecZstd}, f16},
	}
	if meta {
		sets[0].spec.DimNames = []string{"y", "x"}
		sets[0].spec.Labels = [][]string{{"a", "b", "c", "d", "e"}, nil}
		sets[1].spec.DimNames = []string{"time", "station"}
		sets[1].spec.Labels = [][]string{{"t0", "t1", "t2", "t3", "t4", "t5"}, {"A", "B", "C", "D", "E"}}
		sets[1].spec.Attrs = map[string]string{"units": "K", "_FillValue": "-999"}
		sets[3].spec.Attrs = map[string]string{"long_name": "half floats"}
	}
	return sets
}

var sampleHistory = []tetcore.HistoryRow{{Op: "convert", Source: "era5.nc", At: "1732100000",
	Parents: []string{"p1"}, Params: map[string]string{"jobs": "4"}}}

// buildSample writes the sample with tetcore's writer (with a footer when
// meta is set) and returns its bytes and layout.
func buildSample(t testing.TB, meta bool) *sample {
	t.Helper()
	sets := sampleSets(meta)
	path := filepath.Join(t.TempDir(), "sample.tet")
	var hist []tetcore.HistoryRow
	if meta {
		hist = sampleHistory
	}
	writeFile(t, path, sets, hist)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := &sample{data: data, sets: sets}
	le := binary.LittleEndian
	pos := 40
	for range le.Uint32(data[8:]) {
		s.records = append(s.records, pos)
		nameLen, ndim := int(le.Uint32(data[pos:])), int(le.Uint32(data[pos+8:]))
		pos += (16+nameLen+7)&^7 + 16*ndim
	}
	s.index = int(le.Uint64(data[16:]))
	s.entries = int(le.Uint64(data[s.index+8:]))
	for i := range s.entries {
		e := s.entry(i)
		s.payloadEnd = max(s.payloadEnd, int(le.Uint64(data[e+72:])+le.Uint64(data[e+88:])))
	}
	if (le.Uint32(data[12:])&1 != 0) != meta {
		t.Fatalf("footer flag %d with meta=%v", le.Uint32(data[12:]), meta)
	}
	return s
}

// sentinels are the package's exported errors.
var sentinels = []error{tetcore.ErrBadMagic, tetcore.ErrUnsupported, tetcore.ErrCorrupt, tetcore.ErrTruncated,
	tetcore.ErrDecode, tetcore.ErrMissingChunk, tetcore.ErrTooLarge, tetcore.ErrClosed, tetcore.ErrNotFound}

func isSentinel(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// hasContext reports whether an error message names where it happened.
func hasContext(err error) bool {
	m := err.Error()
	if !strings.HasPrefix(m, "tetcore: ") {
		return false
	}
	for _, w := range []string{"superblock", "dataset", "chunk index", "chunk "} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

// checkContents asserts that every dataset of f holds what s wrote.
func checkContents(t *testing.T, f *tetcore.File, s *sample) {
	t.Helper()
	if len(f.Datasets) != len(s.sets) {
		t.Fatalf("%d datasets, want %d", len(f.Datasets), len(s.sets))
	}
	for i, g := range s.sets {
		ds := f.Datasets[i]
		if ds.Name != g.spec.Name {
			t.Fatalf("dataset %d is %q, want %q", i, ds.Name, g.spec.Name)
		}
		if got := assemble(t, f, ds); !bytes.Equal(got, g.data) {
			t.Errorf("dataset %q: values differ", ds.Name)
		}
	}
}

// readEverything reads every chunk of every dataset, converts every
// element, and runs a deep Verify; used on files that opened despite
// damage, where errors are fine but panics are not.
func readEverything(t testing.TB, f *tetcore.File) {
	var buf []byte
	for _, ds := range f.Datasets {
		for i := range ds.Chunks() {
			c := &ds.Chunks()[i]
			out, err := f.ReadChunk(ds, c, buf)
			if err != nil {
				if !isSentinel(err) || !strings.Contains(err.Error(), ds.Name) {
					t.Errorf("ReadChunk error without sentinel or context: %v", err)
				}
				continue
			}
			if int64(len(out)) != c.RawLen {
				t.Errorf("dataset %q chunk %v: %d bytes, want %d", ds.Name, c.Coords, len(out), c.RawLen)
			}
			for k := 0; k < len(out)/ds.DType.Size(); k++ {
				_ = ds.DType.Float64(out, k)
			}
			buf = out // a raw view too: ReadChunk must not decode into the file
		}
	}
	if _, err := f.VerifyReport(tetcore.VerifyDeep); err != nil {
		t.Errorf("Verify: %v", err)
	}
}
