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
// min and max are the SQL values the cells table emits for the chunk's
// smallest and largest elements (emitting is monotone, so every element
// the chunk emits lies between them in SQLite's order).
type chunkStat struct {
	min, max     sqlNum
	count, nulls int64
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
	st := chunkStat{count: s.Count(), nulls: s.NullCount()}
	if st.count > 0 {
		st.min, st.max = emitted(s.IntMin, s.Min), emitted(s.IntMax, s.Max)
	}
	c.mu.Lock()
	if len(c.m) < maxCachedChunks {
		c.m[id] = st
	}
	c.mu.Unlock()
}

// emitted is the SQL value the cells table emits for an extreme of a
// chunk: INTEGER when the exact integer fits an int64, else REAL (floats,
// and u64 elements above 2^63-1, which the cells table emits as REAL
// rounded exactly as asFloat rounds them).
func emitted(asInt func() (int64, bool), asFloat func() (float64, bool)) sqlNum {
	if n, ok := asInt(); ok {
		return sqlNum{i: n}
	}
	f, _ := asFloat()
	return sqlNum{f: f, real: true}
}

// valueTerm is one "value op x" term of a cells query. x may be known
// only up to rounding (TEXT converted to REAL, which SQLite may round
// differently in the last place): it then lies in [lo, hi].
type valueTerm struct {
	op     planner.Op
	lo, hi sqlNum
}

// excludes reports whether no element of a chunk with statistics s can
// satisfy every term, comparing as SQLite does (INTEGER with REAL
// exactly). NaN reads as NULL, which satisfies no comparison.
func excludes(s chunkStat, terms []valueTerm) bool {
	if s.count == 0 {
		return true
	}
	for _, t := range terms {
		switch t.op {
		case planner.OpGT:
			if cmpNum(s.max, t.lo) <= 0 {
				return true
			}
		case planner.OpGE:
			if cmpNum(s.max, t.lo) < 0 {
				return true
			}
		case planner.OpLT:
			if cmpNum(s.min, t.hi) >= 0 {
				return true
			}
		case planner.OpLE:
			if cmpNum(s.min, t.hi) > 0 {
				return true
			}
		case planner.OpEQ:
			if cmpNum(s.max, t.lo) < 0 || cmpNum(s.min, t.hi) > 0 {
				return true
			}
		}
	}
	return false
}

// newValueTerm converts a value term's argument as SQLite compares it
// with a numeric column: INTEGER and REAL as they are, TEXT that reads as
// a number converted (numeric affinity). Other TEXT, BLOB, NULL and NaN
// give ok=false: such terms never skip a chunk.
func newValueTerm(op planner.Op, v any) (valueTerm, bool) {
	switch x := v.(type) {
	case int64:
		n := sqlNum{i: x}
		return valueTerm{op, n, n}, true
	case float64:
		if math.IsNaN(x) {
			return valueTerm{}, false
		}
		n := sqlNum{f: x, real: true}
		return valueTerm{op, n, n}, true
	case string:
		return textTerm(op, x)
	}
	return valueTerm{}, false
}
