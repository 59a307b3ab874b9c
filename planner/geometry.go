package planner

import (
	"errors"
	"fmt"
)

// ErrGeometry is returned by [NewGeometry] for an invalid shape, chunk
// shape or label list.
var ErrGeometry = errors.New("planner: invalid geometry")

// Geometry is the immutable shape of one dataset: array shape, chunk shape,
// chunk grid and optional coordinate labels. It is safe for concurrent use;
// label indexes are built lazily, once, on first need, and shared by every
// plan made from it.
type Geometry struct {
	rank      int
	shape     [MaxRank]int64
	chunk     [MaxRank]int64
	grid      [MaxRank]int64
	stride    [MaxRank]int64 // element strides, row-major
	gstride   [MaxRank]int64 // chunk-grid strides, row-major
	total     int64          // elements
	numChunks int64
	labels    [MaxRank]*labelAxis // nil for an unlabeled axis
}

// NewGeometry validates and returns the geometry of a dataset. shape and
// chunkShape must have the same length, 1..[MaxRank]; every shape[d] ≥ 0 (a
// zero extent makes an empty dataset) and every chunkShape[d] ≥ 1; the
// element count must fit in int64. labels is nil or has one entry per axis,
// each nil (unlabeled) or exactly shape[d] strings. The slices are copied
// except the label strings, which must not be modified afterwards.
func NewGeometry(shape, chunkShape []int64, labels [][]string) (*Geometry, error) {
	r := len(shape)
	if r < 1 || r > MaxRank {
		return nil, fmt.Errorf("%w: rank %d not in 1..%d", ErrGeometry, r, MaxRank)
	}
	if len(chunkShape) != r {
		return nil, fmt.Errorf("%w: chunk shape has %d axes, shape has %d", ErrGeometry, len(chunkShape), r)
	}
	if labels != nil && len(labels) != r {
		return nil, fmt.Errorf("%w: %d label lists for %d axes", ErrGeometry, len(labels), r)
	}
	g := &Geometry{rank: r}
	span := int64(1) // product of max(shape[d], 1): must fit so strides do
	for d := range r {
		if shape[d] < 0 {
			return nil, fmt.Errorf("%w: shape[%d] = %d", ErrGeometry, d, shape[d])
		}
		if chunkShape[d] < 1 {
			return nil, fmt.Errorf("%w: chunk_shape[%d] = %d", ErrGeometry, d, chunkShape[d])
		}
		var ok bool
		if span, ok = mulNonNeg(span, max(shape[d], 1)); !ok {
			return nil, fmt.Errorf("%w: element count overflows int64", ErrGeometry)
		}
		g.shape[d], g.chunk[d] = shape[d], chunkShape[d]
		g.grid[d] = shape[d] / chunkShape[d]
		if shape[d]%chunkShape[d] != 0 {
			g.grid[d]++
		}
		if labels != nil && labels[d] != nil {
			if int64(len(labels[d])) != shape[d] {
				return nil, fmt.Errorf("%w: axis %d has %d labels for size %d", ErrGeometry, d, len(labels[d]), shape[d])
			}
			g.labels[d] = &labelAxis{labels: labels[d]}
		}
	}
	g.total, g.numChunks = 1, 1
	for d := r - 1; d >= 0; d-- {
		g.stride[d], g.gstride[d] = g.total, g.numChunks
		g.total *= g.shape[d]    // ≤ span: no overflow
		g.numChunks *= g.grid[d] // grid[d] ≤ shape[d]
	}
	return g, nil
}

// Rank returns the number of axes.
func (g *Geometry) Rank() int { return g.rank }

// Size returns the extent of axis d.
func (g *Geometry) Size(d int) int64 { return g.shape[d] }

// ChunkSize returns the chunk extent along axis d (before edge trimming).
func (g *Geometry) ChunkSize(d int) int64 { return g.chunk[d] }

// GridSize returns the number of chunks along axis d, ceil(size/chunk).
func (g *Geometry) GridSize(d int) int64 { return g.grid[d] }

// Elements returns the number of elements (rows of the cells table).
func (g *Geometry) Elements() int64 { return g.total }

// NumChunks returns the number of chunks in the grid.
func (g *Geometry) NumChunks() int64 { return g.numChunks }

// Labeled reports whether axis d has coordinate labels.
func (g *Geometry) Labeled(d int) bool { return d >= 0 && d < g.rank && g.labels[d] != nil }

// LabelsSorted reports whether the labels of axis d are strictly ascending
// in byte order, so that label ranges are honoured. Computed once.
func (g *Geometry) LabelsSorted(d int) bool {
	return g.Labeled(d) && g.labels[d].isSorted()
}

// LabelsUnique reports whether no label occurs twice on axis d, so that
// label equality is always honoured. Computed once.
func (g *Geometry) LabelsUnique(d int) bool {
	return g.Labeled(d) && g.labels[d].unique()
}

// LabelType returns the SQL type of axis d's label column: LabelNone for
// an unlabeled axis, LabelInteger or LabelReal when every label reads as a
// number by [ParseLabelNumber] (REAL as soon as one is not an integer),
// else LabelText. Computed once.
func (g *Geometry) LabelType(d int) LabelType {
	if !g.Labeled(d) {
		return LabelNone
	}
	switch na := g.labels[d].numeric(); {
	case na == nil:
		return LabelText
	case na.real:
		return LabelReal
	}
	return LabelInteger
}

// LabelInt returns label i of an INTEGER label axis d as its number.
func (g *Geometry) LabelInt(d int, i int64) int64 { return g.labels[d].numeric().ints[i] }

// LabelReal returns label i of a REAL label axis d as its number.
func (g *Geometry) LabelReal(d int, i int64) float64 { return g.labels[d].numeric().reals[i] }

// LabelMatch evaluates "label i of axis d op v" on a numeric label axis
// as SQLite compares a REAL or INTEGER column: v must be int64, float64
// or nil (NULL and NaN match nothing). ok is false when the axis is not
// numeric or v has another type (apply numeric affinity to TEXT first).
func (g *Geometry) LabelMatch(d int, i int64, op Op, v any) (match, ok bool) {
	if !g.Labeled(d) || !op.comparison() {
		return false, false
	}
	na := g.labels[d].numeric()
	n, null, ok := numOf(v)
	if na == nil || !ok {
		return false, false
	}
	return !null && na.matches(int(i), op, n), true
}

// rowIDOf returns the rowid of in-range coordinates c.
func (g *Geometry) rowIDOf(c *[MaxRank]int64) int64 {
	var id int64
	for d := range g.rank {
		id += c[d] * g.stride[d]
	}
	return id
}

// unravelRow writes the coordinates of rowid id, 0 ≤ id < Elements, into c.
func (g *Geometry) unravelRow(id int64, c *[MaxRank]int64) {
	for d := range g.rank {
		c[d] = id / g.stride[d]
		id -= c[d] * g.stride[d]
	}
}
