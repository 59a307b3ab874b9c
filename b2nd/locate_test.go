package b2nd

import (
	"fmt"
	"testing"
)

// TestLocate checks the chunk/block/element mapping by hand on a 2-d
// layout with padded blocks (chunk 5, block 2: blocks cover 6 rows).
func TestLocate(t *testing.T) {
	l := Layout{Shape: []int64{7, 5}, ChunkShape: []int64{5, 3}, BlockShape: []int64{2, 2}}
	// Chunk grid 2x2; block grid per chunk 3x2 blocks of 4 elements.
	tests := []struct {
		index          []int64
		chunk, element int64
	}{
		{[]int64{0, 0}, 0, 0},
		{[]int64{0, 1}, 0, 1},
		{[]int64{1, 0}, 0, 2},
		{[]int64{0, 2}, 0, 4},  // block (0,1)
		{[]int64{2, 0}, 0, 8},  // block (1,0)
		{[]int64{4, 2}, 0, 20}, // block (2,1), element (0,0)
		{[]int64{5, 0}, 2, 0},  // chunk (1,0)
		{[]int64{6, 4}, 3, 3},  // chunk (1,1), r (1,1): block (0,0) element (1,1)
		{[]int64{3, 4}, 1, 11}, // chunk (0,1), r (3,1): block (1,0) = 2 of a 3x2 grid, element (1,1)
	}
	for _, tc := range tests {
		c, e, err := l.Locate(tc.index)
		if err != nil || c != tc.chunk || e != tc.element {
			t.Errorf("Locate(%v) = %d, %d, %v; want %d, %d", tc.index, c, e, err, tc.chunk, tc.element)
		}
	}
	for _, bad := range [][]int64{{7, 0}, {0, 5}, {-1, 0}, {0}} {
		if _, _, err := l.Locate(bad); err == nil {
			t.Errorf("Locate(%v) accepted", bad)
		}
	}
	if g := l.ChunkGrid(); fmt.Sprint(g) != "[2 2]" {
		t.Errorf("ChunkGrid = %v", g)
	}
}

// TestLocate_memcpyed checks Locate against values: in the memcpyed
// fixture every chunk's bytes follow its 32-byte header verbatim, so each
// probe of expected.json can be read straight from the frame.
func TestLocate_memcpyed(t *testing.T) {
	f, err := openFixture(t, "memcpyed.b2nd")
	if err != nil {
		t.Fatal(err)
	}
	probes := memcpyedProbes(t)
	for _, p := range probes {
		c, e, err := f.Locate(p.Index)
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.ChunkBytes(int(c))
		if err != nil {
			t.Fatal(err)
		}
		if b[2]&2 == 0 {
			t.Fatalf("chunk %d is not memcpyed", c)
		}
		got := f32At(b[32:], e)
		if p.Value == nil || float64(got) != *p.Value {
			t.Errorf("cell %v = %v, want %v", p.Index, got, p.Value)
		}
	}
}
