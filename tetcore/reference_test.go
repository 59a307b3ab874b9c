package tetcore_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// readAll returns every element of ds as float64 in row-major order.
func readAll(t testing.TB, f *tetcore.File, ds *tetcore.Dataset) []float64 {
	t.Helper()
	out := make([]float64, ds.Elements())
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
			out[ds.Linear(pos)] = ds.DType.Float64(data, int(k))
		}
	}
	return out
}

func TestReferenceFixtures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file, dataset string
		dtype         tetcore.DType
		footer        string
	}{
		{"sample.tet", "temperature", tetcore.F32, "absent"},
		{"multichunk_u8.tet", "a", tetcore.U8, "absent"},
		{"multichunk_u32.tet", "a", tetcore.U32, "absent"},
		{"plan.tet", "a", tetcore.F32, "damaged: "},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			f, err := tetcore.Open(filepath.Join("..", "testdata", "reference", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if !strings.HasPrefix(f.FooterStatus(), tc.footer) {
				t.Errorf("footer status %q, want prefix %q", f.FooterStatus(), tc.footer)
			}
			ds, err := f.Dataset(tc.dataset)
			if err != nil {
				t.Fatal(err)
			}
			if ds.DType != tc.dtype || len(ds.Shape) != 2 || ds.Shape[0] != 2 || ds.Shape[1] != 3 ||
				ds.ChunkShape[0] != 2 || ds.ChunkShape[1] != 2 || ds.ChunkCount() != 2 {
				t.Fatalf("geometry: %v %v %v grid %v", ds.DType, ds.Shape, ds.ChunkShape, ds.Grid)
			}
			if got := ds.Chunks()[1].RawLen; got != 2*int64(tc.dtype.Size()) {
				t.Errorf("edge chunk raw len %d", got)
			}
			vals := readAll(t, f, ds)
			var sum, sq float64
			for i, v := range vals {
				if v != float64(i+1) {
					t.Errorf("value %d = %v, want %d", i, v, i+1)
				}
				sum += v
			}
			mean := sum / float64(len(vals))
			for _, v := range vals {
				sq += (v - mean) * (v - mean)
			}
			if sum != 21 || mean != 3.5 || sq/6 != 35.0/12 {
				t.Errorf("sum %v mean %v var %v", sum, mean, sq/6)
			}
			rep, err := f.VerifyReport(tetcore.VerifyDeep)
			if err != nil || !rep.OK() || rep.DecodedChunks != 2 {
				t.Errorf("verify: %v %+v", err, rep)
			}
		})
	}
}
