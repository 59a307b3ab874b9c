package tetcore

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
)

// The footer v2 zone maps (the blob zone_maps_ref points to): per chunk,
// its element count, NaN count, and min and max element bytes. They are
// parsed on first use, checked against the directory (dataset, grid
// coordinates, dtype size, counts within the chunk), and offered to
// readers only when every entry passes; otherwise the whole blob is
// ignored and the reason kept for Verify. Datasets with a missing-value
// sentinel get none (hasSentinel).

type zoneMapsJSON struct {
	Version *int            `json:"version"`
	Chunks  []zoneChunkJSON `json:"chunks"`
}

type zoneChunkJSON struct {
	DatasetID    *int    `json:"dataset_id"`
	ChunkIndex   []int64 `json:"chunk_index"`
	ElementCount *int64  `json:"element_count"`
	NullCount    *int64  `json:"null_count"`
	MinLE        *string `json:"min_le"`
	MaxLE        *string `json:"max_le"`
}

// zoneMaps returns the parsed zone maps, per dataset by linear chunk id
// (nil when the file has none or they were rejected).
func (f *File) zoneMaps() []map[int64]array.ZoneMap {
	f.zoneOnce.Do(func() {
		if f.zoneRef == nil {
			return
		}
		zm, err := f.parseZoneMaps()
		if err != nil {
			f.zoneProblem = err.Error()
			return
		}
		f.zones = zm
	})
	return f.zones
}

// parseZoneMaps reads and checks the blob.
func (f *File) parseZoneMaps() ([]map[int64]array.ZoneMap, error) {
	r := f.zoneRef
	var blob []byte
	if err := f.Guard(func() { blob = append([]byte(nil), f.data[r.Offset:r.Offset+r.Len]...) }); err != nil {
		return nil, err
	}
	var zj zoneMapsJSON
	if err := json.Unmarshal(blob, &zj); err != nil {
		return nil, fmt.Errorf("zone maps: %v", err)
	}
	if zj.Version == nil || *zj.Version != 1 {
		return nil, fmt.Errorf("zone maps: unknown version")
	}
	out := make([]map[int64]array.ZoneMap, len(f.Datasets))
	for i, c := range zj.Chunks {
		id, ds, zm, err := f.checkZone(&c)
		if err != nil {
			return nil, fmt.Errorf("zone maps: entry %d: %v", i, err)
		}
		if ds == nil {
			continue // a dataset with a sentinel value: see checkZone
		}
		if out[ds.ID] == nil {
			out[ds.ID] = map[int64]array.ZoneMap{}
		}
		if _, dup := out[ds.ID][id]; dup {
			return nil, fmt.Errorf("zone maps: entry %d: chunk %v of dataset %q listed twice", i, c.ChunkIndex, ds.Name)
		}
		out[ds.ID][id] = zm
	}
	return out, nil
}

// checkZone validates one entry against the directory.
func (f *File) checkZone(c *zoneChunkJSON) (int64, *Dataset, array.ZoneMap, error) {
	var zm array.ZoneMap
	if c.DatasetID == nil || *c.DatasetID < 0 || *c.DatasetID >= len(f.Datasets) {
		return 0, nil, zm, fmt.Errorf("no dataset %v", c.DatasetID)
	}
	ds := f.Datasets[*c.DatasetID]
	if hasSentinel(ds) {
		return 0, nil, zm, nil
	}
	if len(c.ChunkIndex) != ds.Rank() {
		return 0, nil, zm, fmt.Errorf("dataset %q: chunk_index %v for rank %d", ds.Name, c.ChunkIndex, ds.Rank())
	}
	id, n := int64(0), int64(1)
	for a, x := range c.ChunkIndex {
		if x < 0 || x >= ds.Grid[a] {
			return 0, nil, zm, fmt.Errorf("dataset %q: chunk_index %v outside the grid %v", ds.Name, c.ChunkIndex, ds.Grid)
		}
		id = id*ds.Grid[a] + x
		n *= min(ds.ChunkShape[a], ds.Shape[a]-x*ds.ChunkShape[a])
	}
	if c.ElementCount == nil || c.NullCount == nil || *c.ElementCount != n || *c.NullCount < 0 || *c.NullCount > n ||
		(*c.NullCount > 0 && !ds.DType.Array().IsFloat()) {
		return 0, nil, zm, fmt.Errorf("dataset %q chunk %v: counts %v/%v for %d elements", ds.Name, c.ChunkIndex, c.ElementCount, c.NullCount, n)
	}
	zm.Count, zm.Nulls = n, *c.NullCount
	if zm.Nulls == n {
		return id, ds, zm, nil // all NaN: no extremes
	}
	dt := ds.DType.Array()
	var err error
	if zm.Min, err = zoneBytes(c.MinLE, dt); err == nil {
		zm.Max, err = zoneBytes(c.MaxLE, dt)
	}
	if err != nil {
		return 0, nil, zm, fmt.Errorf("dataset %q chunk %v: %v", ds.Name, c.ChunkIndex, err)
	}
	if zoneLess(dt, zm.Max, zm.Min) {
		return 0, nil, zm, fmt.Errorf("dataset %q chunk %v: min above max", ds.Name, c.ChunkIndex)
	}
	return id, ds, zm, nil
}

// hasSentinel reports whether ds declares a missing-value sentinel
// (_FillValue or missing_value). The reference writer then counts the
// elements equal to it as nulls and leaves them out of min and max,
// while SQL sees them as values: such zone maps describe other values
// than the query's, and are not used (nor compared by Verify).
func hasSentinel(ds *Dataset) bool {
	_, fill := ds.Attrs["_FillValue"]
	_, missing := ds.Attrs["missing_value"]
	return fill || missing
}

// zoneBytes decodes a min_le/max_le: exactly one element, not NaN.
func zoneBytes(s *string, dt array.DType) ([]byte, error) {
	if s == nil {
		return nil, fmt.Errorf("min_le/max_le missing")
	}
	b, err := hex.DecodeString(*s)
	if err != nil || len(b) != dt.Size() {
		return nil, fmt.Errorf("min_le/max_le %q is not one %v element", *s, dt)
	}
	if dt.IsFloat() && math.IsNaN(dt.Float64(b, 0)) {
		return nil, fmt.Errorf("min_le/max_le %q is NaN", *s)
	}
	return b, nil
}

// zoneLess compares two single elements of dt (neither NaN).
func zoneLess(dt array.DType, a, b []byte) bool {
	switch {
	case dt.IsFloat():
		return dt.Float64(a, 0) < dt.Float64(b, 0)
	case dt == array.U64:
		return dt.Uint64(a, 0) < dt.Uint64(b, 0)
	}
	return dt.Int64(a, 0) < dt.Int64(b, 0)
}

// ZoneMap implements array.ZoneMapper.
func (a *dsArray) ZoneMap(id int64) (array.ZoneMap, bool) {
	zs := a.f.zoneMaps()
	if zs == nil || zs[a.ds.ID] == nil {
		return array.ZoneMap{}, false
	}
	z, ok := zs[a.ds.ID][id]
	return z, ok
}
