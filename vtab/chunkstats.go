package vtab

import (
	"math"
	"sync"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
	"github.com/tetsql/tetsql/tetcore"
)

// maxCachedChunks bounds the per-dataset chunk statistics cache.
const maxCachedChunks = 1 << 20

// chunkStat summarises one whole chunk: what a full-chunk fold computed.
type chunkStat struct {
	min, max     float64
	count, nulls int64
	exact        bool // min and max are exact as float64
}

// statCache holds the statistics of chunks that an aggregate folded whole,
// for the life of the file, so that value predicates on the cells table
// can skip chunks that cannot match.
type statCache struct {
	mu sync.RWMutex
	m  map[int64]chunkStat
}

var statCaches sync.Map // *tetcore.Dataset → *statCache

func cacheFor(ds *tetcore.Dataset) *statCache {
	if c, ok := statCaches.Load(ds); ok {
		return c.(*statCache)
	}
	c, _ := statCaches.LoadOrStore(ds, &statCache{m: map[int64]chunkStat{}})
	return c.(*statCache)
}

// dropCaches forgets the statistics of a file's datasets (on close).
func dropCaches(f *tetcore.File) {
	for _, ds := range f.Datasets {
		statCaches.Delete(ds)
	}
}

func (c *statCache) get(id int64) (chunkStat, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s, ok := c.m[id]
	return s, ok
}

func (c *statCache) has(id int64) bool {
	_, ok := c.get(id)
	return ok
}

// put records the fold of a whole chunk.
func (c *statCache) put(id int64, s fold.Stats) {
	st := chunkStat{count: s.Count(), nulls: s.NullCount(), exact: true}
	if s.IsInt() {
		lo, ok1 := s.IntMin()
		hi, ok2 := s.IntMax()
		const exactInt = 1 << 53
		st.exact = ok1 && ok2 && lo > -exactInt && hi < exactInt
		st.min, st.max = float64(lo), float64(hi)
	} else if st.count > 0 {
		st.min, _ = s.Min()
		st.max, _ = s.Max()
	}
	c.mu.Lock()
	if len(c.m) < maxCachedChunks {
		c.m[id] = st
	}
	c.mu.Unlock()
}

// valueTerm is one "value op x" term of a cells query.
type valueTerm struct {
	op planner.Op
	x  float64
}

// excludes reports whether no element of a chunk with statistics s can
// satisfy every term: NaN reads as NULL, which satisfies no comparison.
func excludes(s chunkStat, terms []valueTerm) bool {
	if s.count == 0 {
		return true
	}
	if !s.exact {
		return false
	}
	for _, t := range terms {
		switch t.op {
		case planner.OpGT:
			if s.max <= t.x {
				return true
			}
		case planner.OpGE:
			if s.max < t.x {
				return true
			}
		case planner.OpLT:
			if s.min >= t.x {
				return true
			}
		case planner.OpLE:
			if s.min > t.x {
				return true
			}
		case planner.OpEQ:
			if t.x < s.min || t.x > s.max {
				return true
			}
		}
	}
	return false
}

// valueNumber converts a value term's argument to float64; TEXT that is
// not a number, BLOB and NULL give ok=false (no skipping then).
func valueNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	case string:
		if n, ok := parseNumeric(x); ok {
			return valueNumber(n)
		}
	}
	return 0, false
}
