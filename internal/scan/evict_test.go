package scan

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// TestEvictor_batches finishes 500 chunks of random sizes, laid out
// back to back with alignment padding, in a shuffled-nearby order (as
// workers finish them), and checks that the evictor only ever drops
// bytes of finished chunks, keeps at most window+batch bytes pending,
// coalesces neighbours into few calls, and accounts for every byte.
func TestEvictor_batches(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 500
	chunks := make([]array.ChunkInfo, n)
	off := uint64(0)
	for i := range chunks {
		size := int64(100 + rng.IntN(200))
		chunks[i] = array.ChunkInfo{Offset: int64(off), StoredBytes: size}
		off += uint64(size) + uint64(rng.IntN(8)) // padding
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for i := 0; i+1 < n; i++ { // each chunk finishes at most 3 places off
		if j := i + rng.IntN(4); j < n {
			order[i], order[j] = order[j], order[i]
		}
	}
	finished := make([]bool, n)
	var calls []byteSpan
	e := &evictor{window: 5000, batch: 2000, evict: func(lo, hi uint64) {
		for i, c := range chunks {
			if uint64(c.Offset) < hi && uint64(c.Offset+c.StoredBytes) > lo && !finished[i] {
				t.Fatalf("evicted [%d, %d), which overlaps chunk %d, still in use", lo, hi, i)
			}
		}
		calls = append(calls, byteSpan{lo, hi})
	}}
	var done uint64
	for _, i := range order {
		finished[i] = true
		done += uint64(chunks[i].StoredBytes)
		e.done(&chunks[i])
		if e.held >= e.window+e.batch {
			t.Fatalf("%d bytes pending, more than window+batch", e.held)
		}
	}
	evicted := done - e.held
	if evicted < done-e.window-e.batch {
		t.Fatalf("evicted %d of %d bytes, window %d", evicted, done, e.window)
	}
	// Chunk by chunk would take one call per evicted chunk (about 420);
	// holes left by chunks finishing out of order split some ranges.
	if evictedChunks := n - len(e.pend); len(calls) > evictedChunks/2 {
		t.Fatalf("%d eviction calls for %d chunks: neighbours not coalesced", len(calls), evictedChunks)
	}
	var nilEv *evictor
	nilEv.done(&chunks[0]) // a nil evictor does nothing
}

// TestEvictor_concurrent runs done from several goroutines (for the race
// detector) and checks the accounting.
func TestEvictor_concurrent(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var dropped uint64
	e := &evictor{window: 1 << 12, batch: 1 << 10, evict: func(lo, hi uint64) {
		mu.Lock()
		dropped += hi - lo
		mu.Unlock()
	}}
	const workers, per = 4, 1000
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				// 64-byte chunks 256 bytes apart: the gaps are wider than the
				// padding the evictor bridges, so it evicts exactly what finished.
				c := array.ChunkInfo{Offset: int64(i*workers+w) * 256, StoredBytes: 64}
				e.done(&c)
			}
		}()
	}
	wg.Wait()
	if total := uint64(workers * per * 64); dropped+e.held != total {
		t.Fatalf("dropped %d + held %d != %d", dropped, e.held, total)
	}
}
