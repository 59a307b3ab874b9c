package scan_test

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// fakeFormat is a tiny test-only format: a file is the magic "FAKE"
// followed by a JSON header describing one f64 array whose element at
// row-major index i is i. Chunks with an even id are "raw" (read in
// place from memory the source holds), odd ones are "decoded" into the
// caller's buffer; ids listed in Missing are not stored.
type fakeFormat struct{ opens *atomic.Int64 }

type fakeHeader struct {
	Shape, Chunk []int64
	Missing      []int64
	Labels       [][]string
	Lazy         bool // no memory: chunks may be listed, not read
}

func (fakeFormat) Name() string { return "fake" }

func (fakeFormat) Sniff(head []byte) bool { return strings.HasPrefix(string(head), "FAKE") }

func (f fakeFormat) Open(path string, _ array.Options) (array.Source, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var h fakeHeader
	if err := json.Unmarshal(b[4:], &h); err != nil {
		return nil, fmt.Errorf("fake: %w: %v", array.ErrCorrupt, err)
	}
	a := &fakeArray{info: array.Info{Name: "a", DType: array.F64, Shape: h.Shape, ChunkShape: h.Chunk, Labels: h.Labels},
		missing: map[int64]bool{}}
	if err := a.info.Validate(); err != nil {
		return nil, err
	}
	for _, m := range h.Missing {
		a.missing[m] = true
	}
	if h.Lazy {
		return &fakeSource{arrays: []array.Array{a}, st: &fakeState{}}, nil
	}
	a.mem = make([]byte, 8*a.info.Elements()) // the "mapping": every chunk laid out in chunk order
	var start, ext [array.MaxRank]int64
	off := int64(0)
	r := a.info.Rank()
	for id := range a.info.ChunkCount() {
		n := a.info.ChunkBox(id, start[:r], ext[:r])
		a.offsets = append(a.offsets, off)
		fillChunk(a.mem[off:off+8*n], &a.info, start[:r], ext[:r])
		off += 8 * n
	}
	if f.opens != nil {
		f.opens.Add(1)
	}
	return &fakeSource{arrays: []array.Array{a}, st: &fakeState{}}, nil
}

// fillChunk writes the elements of the chunk box (start, ext) of in.
func fillChunk(dst []byte, in *array.Info, start, ext []int64) {
	r := len(start)
	var local [array.MaxRank]int64
	for k := int64(0); k < int64(len(dst)/8); k++ {
		g := int64(0)
		for a := range r {
			g = g*in.Shape[a] + start[a] + local[a]
		}
		binary.LittleEndian.PutUint64(dst[8*k:], math.Float64bits(float64(g)))
		for a := r - 1; a >= 0; a-- {
			if local[a]++; local[a] < ext[a] {
				break
			}
			local[a] = 0
		}
	}
}

type fakeArray struct {
	info    array.Info
	mem     []byte
	offsets []int64
	missing map[int64]bool
	reads   atomic.Int64
}

func (a *fakeArray) Info() *array.Info { return &a.info }

func (a *fakeArray) Chunk(id int64) (array.ChunkInfo, bool) {
	if id < 0 || id >= a.info.ChunkCount() || a.missing[id] {
		return array.ChunkInfo{}, false
	}
	var start, ext [array.MaxRank]int64
	n := a.info.ChunkBox(id, start[:a.info.Rank()], ext[:a.info.Rank()])
	c := array.ChunkInfo{ID: id, RawBytes: 8 * n, StoredBytes: 8 * n, Offset: -1, Codec: "raw", InPlace: id%2 == 0}
	if a.offsets != nil {
		c.Offset = a.offsets[id]
	}
	if !c.InPlace {
		c.Codec, c.StoredBytes = "fake", 4*n
	}
	return c, true
}

func (a *fakeArray) ReadChunk(id int64, dst []byte) ([]byte, error) {
	c, ok := a.Chunk(id)
	if !ok {
		return nil, fmt.Errorf("fake: chunk %d: %w", id, array.ErrMissingChunk)
	}
	a.reads.Add(1)
	src := a.mem[c.Offset : c.Offset+c.RawBytes]
	if c.InPlace {
		return src, nil
	}
	if int64(cap(dst)) < c.RawBytes {
		dst = make([]byte, c.RawBytes)
	}
	dst = dst[:c.RawBytes]
	copy(dst, src)
	return dst, nil
}

// fakeState is what the capabilities of a fakeSource record.
type fakeState struct {
	pins, evicted atomic.Int64
	changed       atomic.Bool
	closed        atomic.Bool
}

type fakeSource struct {
	arrays []array.Array
	st     *fakeState
}

func (s *fakeSource) Arrays() []array.Array    { return s.arrays }
func (s *fakeSource) Attrs() map[string]string { return map[string]string{"tool": "fake"} }
func (s *fakeSource) Close() error             { s.st.closed.Store(true); return nil }
func (s *fakeSource) Acquire() error {
	if s.st.changed.Load() {
		return array.ErrChanged
	}
	s.st.pins.Add(1)
	return nil
}
func (s *fakeSource) Release()                 { s.st.pins.Add(-1) }
func (s *fakeSource) EvictRange(lo, hi uint64) { s.st.evicted.Add(int64(hi - lo)) }
func (s *fakeSource) CheckUnchanged() error {
	if s.st.changed.Load() {
		return fmt.Errorf("fake: %w", array.ErrChanged)
	}
	return nil
}

// writeFake writes a fake file and returns its path.
func writeFake(t testing.TB, h fakeHeader) string {
	t.Helper()
	b, _ := json.Marshal(h)
	path := filepath.Join(t.TempDir(), "a.fake")
	if err := os.WriteFile(path, append([]byte("FAKE"), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// f64 reads element i of little-endian f64 bytes.
func f64(b []byte, i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])) }

var errAny = errors.New("any")
