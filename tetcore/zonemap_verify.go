package tetcore

import (
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
)

// zoneMismatch compares the zone map of chunk c (if the file has one it
// accepted) with the chunk's decoded elements, for a deep Verify: ""
// when they agree, else what differs. Extremes compare as values (a
// zone map may hold -0 where the data's smallest element is +0).
func (f *File) zoneMismatch(ds *Dataset, c *Chunk, data []byte) string {
	zs := f.zoneMaps()
	if zs == nil || zs[ds.ID] == nil {
		return ""
	}
	zm, ok := zs[ds.ID][c.Linear]
	if !ok {
		return ""
	}
	dt := ds.DType.Array()
	n := len(data) / dt.Size()
	nulls, lo, hi := int64(0), -1, -1
	if err := f.Guard(func() {
		for i := 0; i < n; i++ {
			if dt.IsFloat() && math.IsNaN(dt.Float64(data, i)) {
				nulls++
				continue
			}
			if lo < 0 || zoneLess(dt, data[i*dt.Size():], data[lo*dt.Size():]) {
				lo = i
			}
			if hi < 0 || zoneLess(dt, data[hi*dt.Size():], data[i*dt.Size():]) {
				hi = i
			}
		}
	}); err != nil {
		return err.Error()
	}
	switch {
	case zm.Count != int64(n) || zm.Nulls != nulls:
		return fmt.Sprintf("%d elements, %d NaN; zone map says %d, %d", n, nulls, zm.Count, zm.Nulls)
	case lo < 0:
		return ""
	case !zoneEqual(dt, zm.Min, data[lo*dt.Size():]) || !zoneEqual(dt, zm.Max, data[hi*dt.Size():]):
		return fmt.Sprintf("min %s max %s; zone map says %s, %s", elemText(dt, data[lo*dt.Size():]), elemText(dt, data[hi*dt.Size():]),
			elemText(dt, zm.Min), elemText(dt, zm.Max))
	}
	return ""
}

func zoneEqual(dt array.DType, a, b []byte) bool { return !zoneLess(dt, a, b) && !zoneLess(dt, b, a) }

// elemText renders one element for a finding.
func elemText(dt array.DType, b []byte) string {
	switch {
	case dt.IsFloat():
		return fmt.Sprint(dt.Float64(b, 0))
	case dt == array.U64:
		return fmt.Sprint(dt.Uint64(b, 0))
	}
	return fmt.Sprint(dt.Int64(b, 0))
}
