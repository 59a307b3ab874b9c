package output

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNarrow: narrow gives the widths of taking one column at a time
// from the widest (the leftmost of equals), down to the floors, on
// random widths, floors and limits.
func TestNarrow(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		n := 1 + r.IntN(8)
		widths, floors := make([]int, n), make([]int, n)
		for i := range widths {
			widths[i] = r.IntN(40)
			floors[i] = min(widths[i], r.IntN(10))
		}
		g := &grid{style: &boxStyle, widths: slices.Clone(widths), shown: n}
		if r.IntN(2) == 0 {
			g.style = &columnStyle
		}
		limit := r.IntN(g.lineWidth(widths, n) + 5)
		want := slices.Clone(widths)
		for total := g.lineWidth(want, n); total > limit; total-- {
			widest := -1
			for i := range want {
				if want[i] > floors[i] && (widest < 0 || want[i] > want[widest]) {
					widest = i
				}
			}
			if widest < 0 {
				break
			}
			want[widest]--
		}
		g.narrow(floors, limit)
		if !slices.Equal(g.widths, want) {
			t.Fatalf("widths %v floors %v limit %d: got %v, want %v", widths, floors, limit, g.widths, want)
		}
	}
}
