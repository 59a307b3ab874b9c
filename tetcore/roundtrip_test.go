package tetcore_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// assemble rebuilds the whole row-major array of ds from its chunks.
func assemble(t testing.TB, f *tetcore.File, ds *tetcore.Dataset) []byte {
	t.Helper()
	size := int64(ds.DType.Size())
	out := make([]byte, ds.Elements()*size)
	r := ds.Rank()
	start, extent, pos := make([]int64, r), make([]int64, r), make([]int64, r)
	var buf []byte
	for i := range ds.Chunks() {
		c := &ds.Chunks()[i]
		data, err := f.ReadChunk(ds, c, buf)
		if err != nil {
			t.Fatalf("ReadChunk %v: %v", c.Coords, err)
		}
		n := ds.ChunkStart(c.Coords[:r], start, extent)
		for k := int64(0); k < n; k++ {
			rem := k
			for a := r - 1; a >= 0; a-- {
				pos[a] = start[a] + rem%extent[a]
				rem /= extent[a]
			}
			copy(out[ds.Linear(pos)*size:], data[k*size:(k+1)*size])
		}
	}
	return out
}

type genDataset struct {
	spec tetcore.DatasetSpec
	data []byte
}

// randomDataset makes a dataset with a random shape of the given rank,
// chunking that usually leaves edge chunks, and random element bytes.
func randomDataset(rng *rand.Rand, name string, dt tetcore.DType, rank int, codec tetcore.Codec) genDataset {
	shape, chunk := make([]int64, rank), make([]int64, rank)
	n := int64(1)
	for a := range shape {
		maxDim := int64(7)
		if rank <= 3 {
			maxDim = 20
		}
		shape[a] = 1 + rng.Int64N(maxDim)
		chunk[a] = 1 + rng.Int64N(shape[a]+1)
		n *= shape[a]
	}
	data := make([]byte, n*int64(dt.Size()))
	for i := range data {
		data[i] = byte(rng.IntN(256))
	}
	if rng.IntN(3) == 0 { // compressible runs too
		for i := range data[:len(data)/2] {
			data[i] = 0
		}
	}
	s := tetcore.DatasetSpec{Name: name, DType: dt, Shape: shape, ChunkShape: chunk, Codec: codec}
	if rng.IntN(2) == 0 {
		s.DimNames = make([]string, rank)
		for a := range s.DimNames {
			s.DimNames[a] = fmt.Sprintf("axis%d", a)
		}
		s.Labels = make([][]string, rank)
		s.Labels[0] = make([]string, shape[0])
		for i := range s.Labels[0] {
			s.Labels[0][i] = fmt.Sprintf("L%03d", i)
		}
		s.Attrs = map[string]string{"units": "K", "note": name}
	}
	return genDataset{s, data}
}

func writeFile(t testing.TB, path string, sets []genDataset, hist []tetcore.HistoryRow) {
	t.Helper()
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range sets {
		if err := w.AddDataset(g.spec); err != nil {
			t.Fatal(err)
		}
	}
	w.SetHistory(hist)
	w.SetMemoryBudget(2500, 1<<20)
	for _, g := range sets {
		if err := w.WriteDataset(g.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRoundTrip_everyDTypeCodecRank(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for _, codec := range []tetcore.Codec{tetcore.CodecRaw, tetcore.CodecZstd} {
		for rank := 1; rank <= 8; rank++ {
			var sets []genDataset
			for _, dt := range tetcore.AllDTypes {
				sets = append(sets, randomDataset(rng, fmt.Sprintf("grp/%s_r%d", dt, rank), dt, rank, codec))
			}
			hist := []tetcore.HistoryRow{{Op: "create", Source: "test", At: "1732100000",
				Parents: []string{"p"}, Params: map[string]string{"rank": fmt.Sprint(rank)}}}
			path := filepath.Join(dir, fmt.Sprintf("%s_%d.tet", codec, rank))
			writeFile(t, path, sets, hist)
			f, err := tetcore.Open(path)
			if err != nil {
				t.Fatalf("open %s: %v", path, err)
			}
			if f.FooterStatus() != "ok" || !reflect.DeepEqual(f.Footer.History, hist) {
				t.Errorf("%s: footer %q history %+v", path, f.FooterStatus(), f.Footer.History)
			}
			if f.MemoryBudgetBPS != 2500 || f.MemoryBudgetBytes != 1<<20 {
				t.Errorf("budget %d %d", f.MemoryBudgetBPS, f.MemoryBudgetBytes)
			}
			for i, g := range sets {
				ds := f.Datasets[i]
				if ds.Name != g.spec.Name || ds.DType != g.spec.DType || !reflect.DeepEqual(ds.Shape, g.spec.Shape) ||
					!reflect.DeepEqual(ds.ChunkShape, g.spec.ChunkShape) {
					t.Fatalf("%s: dataset %d header mismatch: %+v", path, i, ds)
				}
				if !reflect.DeepEqual(ds.DimNames, g.spec.DimNames) || !reflect.DeepEqual(ds.Labels, g.spec.Labels) ||
					!reflect.DeepEqual(ds.Attrs, g.spec.Attrs) {
					t.Errorf("%s %s: metadata mismatch", path, ds.Name)
				}
				if got := assemble(t, f, ds); !bytes.Equal(got, g.data) {
					t.Errorf("%s %s: values differ", path, ds.Name)
				}
				for _, c := range ds.Chunks() {
					if c.Codec != codec {
						t.Errorf("codec %v", c.Codec)
					}
				}
			}
			rep, err := f.VerifyReport(tetcore.VerifyDeep)
			if err != nil || !rep.OK() || len(rep.Findings) != 0 {
				t.Errorf("verify %s: %v %v", path, err, rep.Findings)
			}
			f.Close()
		}
	}
}

func TestWriter_spillsLargeMetadata(t *testing.T) {
	t.Parallel()
	n := int64(20000)
	labels := make([]string, n)
	for i := range labels {
		labels[i] = fmt.Sprintf("station-%06d", i)
	}
	spec := tetcore.DatasetSpec{Name: "big", DType: tetcore.U8, Shape: []int64{n}, ChunkShape: []int64{4096},
		DimNames: []string{"station"}, Labels: [][]string{labels}}
	path := filepath.Join(t.TempDir(), "spill.tet")
	writeFile(t, path, []genDataset{{spec, make([]byte, n)}}, nil)
	raw, _ := os.ReadFile(path)
	if !bytes.Contains(raw, []byte(`"metadata_ref"`)) {
		t.Fatal("expected a metadata_ref spill")
	}
	f, err := tetcore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds := f.Datasets[0]
	if f.FooterStatus() != "ok" || len(ds.Labels[0]) != int(n) || ds.Labels[0][12345] != "station-012345" {
		t.Fatalf("footer %q labels %d", f.FooterStatus(), len(ds.Labels))
	}
}

func TestWriter_failureLeavesNoFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "a", DType: tetcore.F32, Shape: []int64{4}, ChunkShape: []int64{2}}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(make([]byte, 8)); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(make([]byte, 3)); err == nil {
		t.Fatal("short chunk accepted")
	}
	if err := w.Close(); err == nil {
		t.Fatal("Close after failure succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Fatalf("left behind: %v", ents)
	}
	w2, _ := tetcore.Create(path)
	w2.AddDataset(tetcore.DatasetSpec{Name: "a", DType: tetcore.F32, Shape: []int64{4}, ChunkShape: []int64{2}})
	w2.WriteChunk(make([]byte, 8))
	if err := w2.Close(); err == nil || !strings.Contains(err.Error(), "not yet written") {
		t.Fatalf("Close with a missing chunk: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left behind: %v", ents)
	}
}

func TestEmptyContainer(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "empty.tet")
	w, _ := tetcore.Create(path)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if len(raw) != 32 {
		t.Fatalf("empty container is %d bytes", len(raw))
	}
	f, err := tetcore.Open(path)
	if err != nil || len(f.Datasets) != 0 {
		t.Fatal(err)
	}
	f.Close()
}

func TestWriter_labelsWithoutDimNamesNameTheAxes(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "nodims.tet")
	spec := tetcore.DatasetSpec{Name: "a", DType: tetcore.U8, Shape: []int64{4, 4}, ChunkShape: []int64{2, 2},
		Labels: [][]string{nil, {"p", "q", "r", "s"}}}
	writeFile(t, path, []genDataset{{spec, make([]byte, 16)}}, nil)
	raw, _ := os.ReadFile(path)
	if !bytes.Contains(raw, []byte(`"dim_names":["d0","d1"]`)) {
		t.Fatalf("footer lacks dim_names: %s", raw[len(raw)-200:])
	}
	f, err := tetcore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds := f.Datasets[0]
	if ds.Labels[0] != nil || !reflect.DeepEqual(ds.Labels[1], []string{"p", "q", "r", "s"}) {
		t.Fatalf("labels %v", ds.Labels)
	}
	w, _ := tetcore.Create(filepath.Join(t.TempDir(), "x.tet"))
	defer w.Abort()
	if err := w.AddDataset(tetcore.DatasetSpec{DType: tetcore.U8, Shape: []int64{1}, ChunkShape: []int64{1}}); err == nil || !strings.Contains(err.Error(), "empty name") {
		t.Fatalf("empty dataset name: %v", err)
	}
}
