package scan

import (
	"container/list"
	"sync"
)

// chunkCache keeps decoded chunks of one source, least recently used
// first out, within a byte budget, so that repeated selective queries on
// compressed data do not decode the same chunks again. In-place chunks
// (array.ChunkInfo.InPlace) are never cached: reading them is free.
//
// Cached buffers are never reused: an evicted chunk stays valid for a
// reader still holding it and is collected when that reader moves on.
type chunkCache struct {
	mu     sync.Mutex
	budget int64
	used   int64
	lru    *list.List // of *cacheEntry, most recent at the front
	m      map[cacheKey]*list.Element
}

type cacheKey struct {
	a  *Array
	id int64
}

type cacheEntry struct {
	key  cacheKey
	data []byte
}

func newChunkCache() *chunkCache {
	return &chunkCache{lru: list.New(), m: map[cacheKey]*list.Element{}}
}

func (c *chunkCache) grow(n int64) {
	c.mu.Lock()
	c.budget = max(c.budget, n)
	c.mu.Unlock()
}

func (c *chunkCache) get(k cacheKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*cacheEntry).data, true
	}
	return nil, false
}

// fits reports whether a chunk of n bytes can be kept at all.
func (c *chunkCache) fits(n int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return n <= c.budget
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
