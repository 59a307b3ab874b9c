package vtab_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// longRunValues fills n f32 or f64 elements: mostly quarters in
// [0, levels/4) (so that ties are common and many elements sit at the
// heap's worst value), with NaN, ±Inf, ±0 and large values sprinkled in.
func longRunValues(rng *rand.Rand, dt tetcore.DType, n int64, levels int) []byte {
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e30, -1e30}
	out := make([]byte, n*int64(dt.Size()))
	for i := range n {
		v := float64(rng.IntN(levels)) / 4
		// One in 16·(levels+1): enough to matter, rare enough that the
		// heap's worst is mostly an ordinary value, tied with many.
		if rng.IntN(16+levels*16) == 0 {

			v = special[rng.IntN(len(special))]
		}
		if dt == tetcore.F32 {
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(float32(v)))
		} else {
			binary.LittleEndian.PutUint64(out[8*i:], math.Float64bits(v))
		}
	}
	return out
}

// TestTopK_longRuns is the differential of TestTopK_differential on f32
// and f64 arrays whose rows along the last axis are long (33 to 300
// elements, chunks of 1 to the whole axis), so that the vector candidate
// search of the top-k (fold.FindF32, FindF64) runs on whole blocks, block
// tails and sub-ranges starting at any offset; both before the chunks'
// statistics exist and after (the bounded pass).
func TestTopK_longRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(77, 5))
	for round := range 6 {
		var sets []diffDataset
		for i, dt := range []tetcore.DType{tetcore.F32, tetcore.F64} {
			shape := []int64{1 + rng.Int64N(6), 1 + rng.Int64N(5), 33 + rng.Int64N(268)}
			chunk := []int64{1 + rng.Int64N(shape[0]), 1 + rng.Int64N(shape[1]), []int64{shape[2], 32 + rng.Int64N(shape[2]-31), 1 + rng.Int64N(shape[2])}[rng.IntN(3)]}
			n := shape[0] * shape[1] * shape[2]
			spec := tetcore.DatasetSpec{Name: fmt.Sprintf("lr%d", i), DType: dt, Shape: shape, ChunkShape: chunk,
				Codec: tetcore.Codec(rng.IntN(2)), DimNames: []string{"a", "b", "c"}, Labels: make([][]string, 3)}
			sets = append(sets, diffDataset{spec, longRunValues(rng, dt, n, []int{6, 200}[rng.IntN(2)])})
		}
		db, _ := openDB(t, map[string]string{"f": writeSets(t, "long.tet", sets)})
		for _, s := range sets {
			copyNative(t, db, s)
		}
		for pass := range 2 {
			for _, s := range sets {
				for q := range 30 {
					w := ""
					switch q % 4 {
					case 1:
						lo := rng.Int64N(s.spec.Shape[2])
						w = fmt.Sprintf("WHERE c BETWEEN %d AND %d", lo, lo+rng.Int64N(s.spec.Shape[2]))
					case 2:
						w = "WHERE value IS NOT NULL"
					case 3:
						w = fmt.Sprintf("WHERE value IS NOT NULL AND b >= %d AND c > %d", rng.Int64N(s.spec.Shape[1]), rng.Int64N(40))
					}
					dir := []string{"", " DESC"}[rng.IntN(2)]
					k := []int64{1, 3, 10, 100, 1000}[rng.IntN(5)]
					off := []string{"", " OFFSET 5", " OFFSET 300"}[rng.IntN(3)]
					q := fmt.Sprintf("SELECT rowid, value, a, b, c FROM %%s %s ORDER BY %%s%s%%s LIMIT %d%s", w, dir, k, off)
					top := fmt.Sprintf(q, "f."+s.spec.Name, "value", "")
					if !isTopK(t, db, top) {
						t.Fatalf("%s: not a top-k", top)
					}
					got := rowsOf(t, db, top)
					want := rowsOf(t, db, fmt.Sprintf(q, "main.n_"+s.spec.Name, "value", ", rowid"))
					plain := rowsOf(t, db, fmt.Sprintf(q, "f."+s.spec.Name, "+value", ", rowid"))
					if !slices.Equal(got, plain) || !slices.Equal(noNegZero(got), want) {
						t.Fatalf("round %d pass %d %s %v chunks %v:\n%s\ncells:  %v\n+value: %v\nnative: %v", round, pass,
							s.spec.DType, s.spec.Shape, s.spec.ChunkShape, top, got, plain, want)
					}
				}
			}
		}
	}
}
