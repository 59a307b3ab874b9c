package arraytest

import (
	"testing"

	"github.com/tetsql/tetsql/array"
)

// checkLister holds an array.ChunkLister to Chunk: it must list exactly
// the chunks Chunk reports as stored, in increasing id order, with the
// same ChunkInfo, and stop when told to. Arrays of more than maxWalk grid
// positions are compared on the listed chunks only.
func checkLister(t *testing.T, a array.Array) {
	l, ok := a.(array.ChunkLister)
	if !ok {
		return
	}
	name := a.Info().Name
	prev := int64(-1)
	var listed []int64
	l.StoredChunks(func(c array.ChunkInfo) bool {
		if c.ID <= prev {
			t.Errorf("%s: StoredChunks lists %d after %d (want increasing ids)", name, c.ID, prev)
		}
		prev = c.ID
		if got, ok := a.Chunk(c.ID); !ok || got != c {
			t.Errorf("%s: StoredChunks lists %+v, Chunk says %+v, %v", name, c, got, ok)
		}
		listed = append(listed, c.ID)
		return true
	})
	const maxWalk = 1 << 20
	if n := a.Info().ChunkCount(); n <= maxWalk {
		var want []int64
		for id := range n {
			if _, ok := a.Chunk(id); ok {
				want = append(want, id)
			}
		}
		if len(want) != len(listed) {
			t.Errorf("%s: StoredChunks lists %d chunks, Chunk finds %d", name, len(listed), len(want))
		}
	}
	calls := 0
	l.StoredChunks(func(array.ChunkInfo) bool { calls++; return false })
	if len(listed) > 0 && calls != 1 {
		t.Errorf("%s: StoredChunks went on for %d calls after yield returned false", name, calls)
	}
}
