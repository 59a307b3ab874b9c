package scan

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlocks_countAndKeys: Blocks lists the distinct i/k of the selected
// indices, ascending, and BlockCount counts them without the list.
func TestBlocks_countAndKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 2000; round++ {
		var s AxisSel
		var want []int64
		g := int64(0)
		for r := rng.IntN(5); r > 0; r-- {
			lo := g + rng.Int64N(6)
			hi := lo + 1 + rng.Int64N(7)
			s.Add(lo, hi)
			g = hi + rng.Int64N(3)
			if g == hi {
				g++ // runs added must not touch (Add would merge them, which is fine too)
			}
		}
		k := 1 + rng.Int64N(6)
		for _, r := range s.Runs {
			for i := r.Lo; i < r.Hi; i++ {
				if n := len(want); n == 0 || want[n-1] != i/k {
					want = append(want, i/k)
				}
			}
		}
		if got := s.Blocks(k); !slices.Equal(got, want) || s.BlockCount(k) != int64(len(want)) {
			t.Fatalf("runs %v k=%d: blocks %v count %d, want %v", s.Runs, k, got, s.BlockCount(k), want)
		}
	}
}
