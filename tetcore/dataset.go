package tetcore

import "fmt"

// Dataset describes one array of a file: its geometry, footer metadata
// and chunks. A Dataset is immutable after Open and safe to share.
type Dataset struct {
	ID         int     // position in the dataset directory
	Name       string  // may contain '/'
	DType      DType   // element type
	Shape      []int64 // global shape, one entry per axis
	ChunkShape []int64 // chunk extent per axis, each ≥ 1
	Grid       []int64 // chunks per axis: ceil(Shape/ChunkShape)

	// From the footer (nil when absent or rejected as damaged).
	DimNames []string          // one per axis
	Labels   [][]string        // per axis; nil entry = axis unlabeled
	Attrs    map[string]string // dataset attributes

	elements   int64 // product of Shape
	gridCount  int64 // product of Grid
	chunks     []Chunk
	dense      bool // chunks[i].Linear == i for all i
	rawBytes   int64
	storedByte int64
}

// Chunk is one chunk index entry.
type Chunk struct {
	Linear    int64          // row-major position in the chunk grid
	Coords    [maxRank]int64 // grid coordinates; slots ≥ rank are 0
	Offset    uint64         // absolute payload offset
	RawLen    int64          // decoded size in bytes
	StoredLen int64          // stored size in bytes
	Codec     Codec          // raw or zstd
	entry     int            // position in the file's chunk index
}

// Rank is the number of axes.
func (d *Dataset) Rank() int { return len(d.Shape) }

// Elements is the number of elements (product of Shape).
func (d *Dataset) Elements() int64 { return d.elements }

// ChunkCount is the number of chunks in the grid (product of Grid).
func (d *Dataset) ChunkCount() int64 { return d.gridCount }

// Chunks returns the dataset's index entries sorted by Linear. The slice
// is shared: do not modify it.
func (d *Dataset) Chunks() []Chunk { return d.chunks }

// RawBytes is the sum of the chunks' decoded sizes.
func (d *Dataset) RawBytes() int64 { return d.rawBytes }

// StoredBytes is the sum of the chunks' stored sizes.
func (d *Dataset) StoredBytes() int64 { return d.storedByte }

// DimName returns the name of axis i: the footer's dim_names entry, or
// "d<i>" when the file has none.
func (d *Dataset) DimName(i int) string {
	if d.DimNames != nil {
		return d.DimNames[i]
	}
	return fmt.Sprintf("d%d", i)
}

// Chunk returns the entry for grid position linear, or false when the
// index has no entry there.
func (d *Dataset) Chunk(linear int64) (*Chunk, bool) {
	if linear < 0 || linear >= d.gridCount {
		return nil, false
	}
	if d.dense {
		return &d.chunks[linear], true
	}
	lo, hi := 0, len(d.chunks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if d.chunks[m].Linear < linear {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(d.chunks) && d.chunks[lo].Linear == linear {
		return &d.chunks[lo], true
	}
	return nil, false
}

// ChunkStart writes into start the global index where chunk coords begins
// along each axis, and into extent its (edge-trimmed) size. Both must have
// length Rank. It returns the number of elements in the chunk.
func (d *Dataset) ChunkStart(coords []int64, start, extent []int64) int64 {
	n := int64(1)
	for i := range d.Shape {
		s := coords[i] * d.ChunkShape[i]
		e := d.ChunkShape[i]
		if rem := d.Shape[i] - s; rem < e {
			e = rem
		}
		start[i], extent[i] = s, e
		n *= e
	}
	return n
}

// LinearChunk converts grid coordinates to the row-major chunk id.
func (d *Dataset) LinearChunk(coords []int64) int64 {
	var l int64
	for i, g := range d.Grid {
		l = l*g + coords[i]
	}
	return l
}

// ChunkCoords converts a row-major chunk id to grid coordinates.
func (d *Dataset) ChunkCoords(linear int64, coords []int64) {
	for i := len(d.Grid) - 1; i >= 0; i-- {
		coords[i] = linear % d.Grid[i]
		linear /= d.Grid[i]
	}
}

// Linear converts global element coordinates to the row-major index.
func (d *Dataset) Linear(coords []int64) int64 {
	var l int64
	for i, s := range d.Shape {
		l = l*s + coords[i]
	}
	return l
}

// Coords converts a row-major element index to global coordinates.
func (d *Dataset) Coords(linear int64, coords []int64) {
	for i := len(d.Shape) - 1; i >= 0; i-- {
		coords[i] = linear % d.Shape[i]
		linear /= d.Shape[i]
	}
}
