package scan

import (
	"sync"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/planner"
)

// maxCachedChunks bounds the chunk statistics kept per array.
const maxCachedChunks = 1 << 20

// ChunkStat summarises one whole chunk: what a full-chunk fold computed.
// Min and Max are the SQL values the cells table emits for the chunk's
// smallest and largest elements (emitting is monotone, so every element
// the chunk emits lies between them in SQLite's order).
type ChunkStat struct {
	Min, Max     Num
	Count, Nulls int64
	// FromFile marks statistics read from the format's zone map, not yet
	// checked against the chunk's elements (see Array.ChunkStat).
	FromFile bool
}

// ChunkStats holds the statistics of the chunks of one array that an
// aggregate folded whole or a value-filtered scan read, for the life of
// the source (shared by every connection), so that value predicates can
// skip chunks that cannot match.
type ChunkStats struct {
	mu sync.RWMutex
	m  map[int64]ChunkStat
	// zonesBad is set once a zone map of the array disagreed with the
	// chunk it describes: the format's statistics are not used again.
	zonesBad bool
}

// Get returns the statistics of chunk id, if an aggregate folded it.
func (c *ChunkStats) Get(id int64) (ChunkStat, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s, ok := c.m[id]
	return s, ok
}

func (c *ChunkStats) has(id int64) bool {
	_, ok := c.Get(id)
	return ok
}

// put records the fold of a whole chunk and returns its statistics.
func (c *ChunkStats) put(id int64, s fold.Stats) ChunkStat {
	st := ChunkStat{Count: s.Count(), Nulls: s.NullCount()}
	if st.Count > 0 {
		st.Min, st.Max = emitted(s.IntMin, s.Min), emitted(s.IntMax, s.Max)
	}
	c.mu.Lock()
	if c.m != nil && len(c.m) < maxCachedChunks {
		c.m[id] = st
	}
	c.mu.Unlock()
	return st
}

func (c *ChunkStats) reset() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}

// emitted is the SQL value the cells table emits for an extreme of a
// chunk: INTEGER when the exact integer fits an int64, else REAL (floats,
// and u64 elements above 2^63-1, which the cells table emits as REAL
// rounded exactly as asFloat rounds them).
func emitted(asInt func() (int64, bool), asFloat func() (float64, bool)) Num {
	if n, ok := asInt(); ok {
		return Num{I: n}
	}
	f, _ := asFloat()
	return Num{F: f, Real: true}
}

// ValueTerm is one "value op x" term of a cells query. x may be known
// only up to rounding (TEXT converted to REAL, which SQLite may round
// differently in the last place): it then lies in [Lo, Hi].
type ValueTerm struct {
	Op     planner.Op
	Lo, Hi Num
}

// Excludes reports whether no element of a chunk with statistics s can
// satisfy every term, comparing as SQLite does (INTEGER with REAL
// exactly). NaN reads as NULL, which satisfies no comparison.
func Excludes(s ChunkStat, terms []ValueTerm) bool {
	if s.Count == 0 {
		return true
	}
	for _, t := range terms {
		switch t.Op {
		case planner.OpGT:
			if CmpNum(s.Max, t.Lo) <= 0 {
				return true
			}
		case planner.OpGE:
			if CmpNum(s.Max, t.Lo) < 0 {
				return true
			}
		case planner.OpLT:
			if CmpNum(s.Min, t.Hi) >= 0 {
				return true
			}
		case planner.OpLE:
			if CmpNum(s.Min, t.Hi) > 0 {
				return true
			}
		case planner.OpEQ:
			if CmpNum(s.Max, t.Lo) < 0 || CmpNum(s.Min, t.Hi) > 0 {
				return true
			}
		}
	}
	return false
}
