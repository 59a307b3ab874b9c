package array

import (
	"fmt"
	"math"
	"strconv"
)

// Info describes one array: its geometry and metadata. A format fills it
// once and checks it with Validate; it is not modified afterwards.
type Info struct {
	Name       string  // the dataset's name in its file; may contain '/'
	DType      DType   // element type
	Shape      []int64 // global shape, one entry per axis, each ≥ 0
	ChunkShape []int64 // chunk extent per axis, each ≥ 1
	// DimNames names the axes (nil when the file has none; see DimName).
	DimNames []string
	// Labels holds coordinate labels per axis: nil, or one entry per
	// axis that is nil (unlabelled) or has Shape[axis] labels.
	Labels [][]string
	Attrs  map[string]string // array attributes (nil when none)

	grid  []int64
	elems int64
	count int64
}

// Validate checks the geometry (rank 0..MaxRank — rank 0 is one element in one chunk —, shapes, labels) and that
// element, chunk and byte counts fit in int64, and caches the derived
// counts. Formats call it before handing the Info out.
func (in *Info) Validate() error {
	r := len(in.Shape)
	switch {
	case !in.DType.Valid():
		return fmt.Errorf("array %q: %w: invalid dtype", in.Name, ErrCorrupt)
	case r > MaxRank:
		return fmt.Errorf("array %q: %w: rank %d (want 0..%d)", in.Name, ErrUnsupported, r, MaxRank)
	case len(in.ChunkShape) != r:
		return fmt.Errorf("array %q: %w: chunk shape has %d axes, shape %d", in.Name, ErrCorrupt, len(in.ChunkShape), r)
	case in.DimNames != nil && len(in.DimNames) != r:
		return fmt.Errorf("array %q: %w: %d dim names for %d axes", in.Name, ErrCorrupt, len(in.DimNames), r)
	case in.Labels != nil && len(in.Labels) != r:
		return fmt.Errorf("array %q: %w: labels for %d axes, want %d", in.Name, ErrCorrupt, len(in.Labels), r)
	}
	grid := make([]int64, r)
	elems, count := int64(1), int64(1)
	for a := range r {
		n, c := in.Shape[a], in.ChunkShape[a]
		if n < 0 || c < 1 {
			return fmt.Errorf("array %q: %w: axis %d has size %d and chunk size %d", in.Name, ErrCorrupt, a, n, c)
		}
		grid[a] = n / c
		if n%c != 0 {
			grid[a]++
		}
		if in.Labels != nil && in.Labels[a] != nil && int64(len(in.Labels[a])) != n {
			return fmt.Errorf("array %q: %w: axis %d has %d labels for size %d", in.Name, ErrCorrupt, a, len(in.Labels[a]), n)
		}
		var ok1, ok2 bool
		elems, ok1 = mul(elems, n)
		count, ok2 = mul(count, grid[a])
		if !ok1 || !ok2 {
			return fmt.Errorf("array %q: %w: shape %v overflows", in.Name, ErrCorrupt, in.Shape)
		}
	}
	if _, ok := mul(elems, int64(in.DType.Size())); !ok {
		return fmt.Errorf("array %q: %w: shape %v overflows in bytes", in.Name, ErrCorrupt, in.Shape)
	}
	in.grid, in.elems, in.count = grid, elems, count
	return nil
}

func mul(a, b int64) (int64, bool) {
	if a != 0 && b > math.MaxInt64/a {
		return 0, false
	}
	return a * b, true
}

// Rank is the number of axes.
func (in *Info) Rank() int { return len(in.Shape) }

// Grid is the number of chunks per axis, ceil(Shape/ChunkShape); do not
// modify it. Valid after Validate.
func (in *Info) Grid() []int64 { return in.grid }

// Elements is the number of elements (product of Shape).
func (in *Info) Elements() int64 { return in.elems }

// ChunkCount is the number of chunk positions in the grid.
func (in *Info) ChunkCount() int64 { return in.count }

// DimName is the name of axis a: its DimNames entry, or "d<a>" when the
// file names none.
func (in *Info) DimName(a int) string {
	if in.DimNames != nil && in.DimNames[a] != "" {
		return in.DimNames[a]
	}
	return "d" + strconv.Itoa(a)
}

// ChunkCoords writes the grid coordinates of chunk id into coords (length
// Rank).
func (in *Info) ChunkCoords(id int64, coords []int64) {
	for a := len(in.grid) - 1; a >= 0; a-- {
		coords[a] = id % in.grid[a]
		id /= in.grid[a]
	}
}

// ChunkBox writes into start the global index where chunk id begins along
// each axis and into extent its edge-trimmed size (both of length Rank),
// and returns the number of elements in the chunk.
func (in *Info) ChunkBox(id int64, start, extent []int64) int64 {
	in.ChunkCoords(id, start)
	n := int64(1)
	for a := range start {
		start[a] *= in.ChunkShape[a]
		extent[a] = min(in.ChunkShape[a], in.Shape[a]-start[a])
		n *= extent[a]
	}
	return n
}
