package vtab

import (
	"container/list"
	"sync"

	"github.com/tetsql/tetsql/tetcore"
)

// chunkCache keeps decoded zstd chunks of one file, least recently used
// first out, within a byte budget, so that repeated selective queries on
// compressed data do not decode the same chunks again. Raw chunks are
// never cached: they are read in place.
//
// Cached buffers are never reused: an evicted chunk stays valid for a
// cursor still reading it and is collected when that cursor moves on.
type chunkCache struct {
	mu     sync.Mutex
	budget int64
	used   int64
	lru    *list.List // of *cacheEntry, most recent at the front
	m      map[cacheKey]*list.Element
}

type cacheKey struct {
	ds *tetcore.Dataset
	id int64
}

type cacheEntry struct {
	key  cacheKey
	data []byte
}

var chunkCaches sync.Map // *tetcore.File → *chunkCache

// SetCacheBudget gives the file a decoded-chunk cache of at least n bytes
// (the largest budget asked for wins; 0 asks for nothing). The cache is
// shared by every connection and lives as long as the file is open.
func SetCacheBudget(f *tetcore.File, n int64) {
	if n <= 0 {
		return
	}
	v, _ := chunkCaches.LoadOrStore(f, &chunkCache{lru: list.New(), m: map[cacheKey]*list.Element{}})
	c := v.(*chunkCache)
	c.mu.Lock()
	c.budget = max(c.budget, n)
	c.mu.Unlock()
}

// cacheOf returns the file's cache, or nil when it has none.
func cacheOf(f *tetcore.File) *chunkCache {
	if v, ok := chunkCaches.Load(f); ok {
		return v.(*chunkCache)
	}
	return nil
}

func dropChunkCache(f *tetcore.File) { chunkCaches.Delete(f) }

func (c *chunkCache) get(k cacheKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*cacheEntry).data, true
	}
	return nil, false
}

// put adds a decoded chunk, evicting the least recently used ones to stay
// within the budget; a chunk larger than the budget is not kept.
func (c *chunkCache) put(k cacheKey, data []byte) {
	n := int64(len(data))
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > c.budget {
		return
	}
	if _, ok := c.m[k]; ok {
		return
	}
	for c.used+n > c.budget {
		e := c.lru.Back()
		old := e.Value.(*cacheEntry)
		c.lru.Remove(e)
		delete(c.m, old.key)
		c.used -= int64(len(old.data))
	}
	c.m[k] = c.lru.PushFront(&cacheEntry{k, data})
	c.used += n
}

// readCached reads chunk ch of ds through the file's cache, if it has
// one; hit reports whether no decode was needed.
func readCached(f *tetcore.File, ds *tetcore.Dataset, ch *tetcore.Chunk, buf []byte) (data []byte, hit, cached bool, err error) {
	cc := cacheOf(f)
	if cc == nil || ch.Codec != tetcore.CodecZstd {
		data, err = f.ReadChunk(ds, ch, buf)
		return data, false, false, err
	}
	k := cacheKey{ds, ch.Linear}
	if data, ok := cc.get(k); ok {
		return data, true, true, nil
	}
	data, err = f.ReadChunk(ds, ch, nil) // a buffer of its own: the cache keeps it
	if err == nil {
		cc.put(k, data)
	}
	return data, false, true, err
}
