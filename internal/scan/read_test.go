package scan_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
)

func openFake(t *testing.T, h fakeHeader) *scan.Source {
	t.Helper()
	reg := scan.NewRegistry([]array.Format{fakeFormat{}})
	hd, err := reg.Open(writeFake(t, h))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hd.Close() })
	return hd.Source()
}

// TestReader_limitPerTable: two tables of one open source read under
// their own limits; in-place chunks cost nothing and are not limited.
func TestReader_limitPerTable(t *testing.T) {
	src := openFake(t, fakeHeader{Shape: []int64{8}, Chunk: []int64{4}}) // chunks of 32 bytes
	a := src.Arrays()[0]
	small, big := scan.NewReader(a, "main.small", 16), scan.NewReader(a, "main.big", 0)
	if _, err := small.Read(1, nil); !errors.Is(err, array.ErrTooLarge) ||
		!strings.Contains(err.Error(), "max_chunk_bytes") || !strings.Contains(err.Error(), "main.small") {
		t.Errorf("decoded chunk over the limit: %v", err)
	}
	if c, err := small.Read(0, nil); err != nil || !c.Info.InPlace || f64(c.Data, 3) != 3 {
		t.Errorf("in-place chunk: %+v, %v", c, err)
	}
	if c, err := big.Read(1, nil); err != nil || f64(c.Data, 0) != 4 || !c.Reusable {
		t.Errorf("default limit: %+v, %v", c, err)
	}
	if _, err := big.Read(7, nil); !errors.Is(err, array.ErrMissingChunk) || !strings.Contains(err.Error(), `dataset "a" chunk [0]`) {
		t.Errorf("outside the grid: %v", err)
	}
}

// TestReader_cache: with a budget, a decoded chunk is decoded once and
// then served by the cache (counted as a hit, its bytes not decoded
// again); in-place chunks are never cached.
func TestReader_cache(t *testing.T) {
	src := openFake(t, fakeHeader{Shape: []int64{8}, Chunk: []int64{4}})
	src.SetCacheBudget(1 << 10)
	a := src.Arrays()[0]
	fa := a.Array.(*fakeArray)
	r := scan.NewReader(a, "main.t", 0)
	var st scan.ScanStats
	for range 3 {
		for _, id := range []int64{0, 1} {
			c, err := r.Read(id, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.Reusable {
				t.Errorf("chunk %d: a cached or in-place chunk handed out as reusable", id)
			}
			st.Count(&c)
		}
	}
	if fa.reads.Load() != 4 || st.CacheHits != 2 || st.ChunksDecoded != 6 || st.BytesDecoded != 32 || st.BytesRead != 3*(32+16) {
		t.Errorf("%d ReadChunk calls, stats %+v", fa.reads.Load(), st)
	}
}

// TestReader_cacheScanResistant: once the cache is full, one pass over
// more chunks than it holds admits nothing and evicts nothing (the pass's
// chunks come as reusable buffers); a chunk read twice within the
// budget's window is admitted.
func TestReader_cacheScanResistant(t *testing.T) {
	src := openFake(t, fakeHeader{Shape: []int64{64}, Chunk: []int64{4}})
	a := src.Arrays()[0]
	var decoded []int64 // the ids of the chunks that are not in place
	for id := range a.Info().ChunkCount() {
		if ci, _ := a.Chunk(id); !ci.InPlace {
			decoded = append(decoded, id)
		}
	}
	if len(decoded) < 4 {
		t.Fatalf("the fake format stores %d decoded chunks, want 4 or more", len(decoded))
	}
	ci, _ := a.Chunk(decoded[0])
	src.SetCacheBudget(2 * ci.RawBytes) // two chunks
	r := scan.NewReader(a, "main.t", 0)
	read := func(id int64) scan.Chunk {
		c, err := r.Read(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a0, b0 := decoded[0], decoded[1]
	read(a0) // kept while there is room
	read(b0)
	if !read(a0).Hit || !read(b0).Hit {
		t.Fatal("two chunks read while the cache had room are not served by it")
	}
	for _, id := range decoded[2:] { // one pass over the others: the cache is full
		if c := read(id); c.Hit || !c.Reusable {
			t.Errorf("chunk %d read once with the cache full: hit=%v reusable=%v, want a reusable buffer", id, c.Hit, c.Reusable)
		}
	}
	if !read(a0).Hit || !read(b0).Hit {
		t.Fatal("a one-pass scan evicted the cached chunks")
	}
	last := decoded[len(decoded)-1]
	if c := read(last); c.Hit || c.Reusable { // its second read: admitted
		t.Errorf("chunk %d on its second read: hit=%v reusable=%v, want a cached buffer", last, c.Hit, c.Reusable)
	}
	if !read(last).Hit {
		t.Errorf("chunk %d, admitted, is not served by the cache", last)
	}
}

// TestTotals counts the stored chunks of a grid with a missing one, and
// a walk of the grid stops with the call's context.
func TestTotals(t *testing.T) {
	src := openFake(t, fakeHeader{Shape: []int64{10}, Chunk: []int64{4}, Missing: []int64{1}})
	a := src.Arrays()[0]
	tot, err := a.Totals(nil) // chunks 0 and 2, both in place
	if err != nil || tot != (scan.Totals{Chunks: 2, RawBytes: 32 + 16, StoredBytes: 32 + 16}) {
		t.Fatalf("totals %+v, %v", tot, err)
	}
	var ids []int64
	a.EachStored(nil, func(c array.ChunkInfo) bool { ids = append(ids, c.ID); return true })
	if len(ids) != 2 || ids[0] != 0 || ids[1] != 2 {
		t.Errorf("stored chunks %v", ids)
	}
	huge := openFake(t, fakeHeader{Shape: []int64{1 << 40}, Chunk: []int64{1 << 10}, Lazy: true})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sess := scan.NewSession(nil)
	sess.Enter(scan.NewCall(ctx))
	if _, err := huge.Arrays()[0].Totals(sess); !errors.Is(err, context.Canceled) {
		t.Errorf("walk of 2^30 positions under a canceled call: %v", err)
	}
}
