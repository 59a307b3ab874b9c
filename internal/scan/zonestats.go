package scan

import (
	"math"

	"github.com/tetsql/tetsql/array"
)

// Statistics from the format (array.ZoneMapper): a chunk's zone map
// stands in for its computed statistics until the chunk is read. Every
// chunk a value-filtered scan or fold reads anyway is folded and its
// zone map compared with the result (the fold is the same cost as
// computing statistics on first need): at the first disagreement the
// array's zone maps are dropped for the life of the source, and the
// chunk is filtered by what its elements say.

// ChunkStat returns the statistics of chunk id: computed earlier in this
// process, or read from the format's zone map (marked FromFile) and kept.
func (a *Array) ChunkStat(id int64) (ChunkStat, bool) {
	if st, ok := a.stats.Get(id); ok {
		return st, true
	}
	zm, ok := a.zoneMap(id)
	if !ok {
		return ChunkStat{}, false
	}
	dt := a.Info().DType
	st := ChunkStat{Count: zm.Count - zm.Nulls, Nulls: zm.Nulls, FromFile: true}
	if st.Count > 0 {
		st.Min, st.Max = emittedElem(dt, zm.Min), emittedElem(dt, zm.Max)
	}
	a.stats.mu.Lock()
	if a.stats.m != nil && !a.stats.zonesBad && len(a.stats.m) < maxCachedChunks {
		if _, had := a.stats.m[id]; !had {
			a.stats.m[id] = st
		}
	}
	a.stats.mu.Unlock()
	return st, true
}

// zoneMap is the format's zone map of chunk id, unless the array's have
// proved wrong.
func (a *Array) zoneMap(id int64) (array.ZoneMap, bool) {
	zmr, ok := a.Array.(array.ZoneMapper)
	if !ok {
		return array.ZoneMap{}, false
	}
	a.stats.mu.RLock()
	bad := a.stats.zonesBad
	a.stats.mu.RUnlock()
	if bad {
		return array.ZoneMap{}, false
	}
	return zmr.ZoneMap(id)
}

// checkZone compares statistics taken from a zone map (was) with those
// computed from the chunk's elements (now, already kept): on a
// difference the array's zone maps are dropped, with every statistic
// taken from them.
func (a *Array) checkZone(was, now ChunkStat) {
	if was.Count == now.Count && was.Nulls == now.Nulls &&
		(now.Count == 0 || CmpNum(was.Min, now.Min) == 0 && CmpNum(was.Max, now.Max) == 0) {
		return
	}
	c := &a.stats
	c.mu.Lock()
	c.zonesBad = true
	for id, st := range c.m {
		if st.FromFile {
			delete(c.m, id)
		}
	}
	c.mu.Unlock()
}

// emittedElem is the SQL value the cells table emits for one element b
// of dt (as emitted does for a fold's extremes).
func emittedElem(dt array.DType, b []byte) Num {
	switch {
	case dt.IsFloat():
		return Num{F: dt.Float64(b, 0), Real: true}
	case dt == array.U64:
		if u := dt.Uint64(b, 0); u > math.MaxInt64 {
			return Num{F: float64(u), Real: true}
		}
	}
	return Num{I: dt.Int64(b, 0)}
}
