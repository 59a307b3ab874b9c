package planner

import (
	"errors"
	"fmt"
)

// ErrOutOfRange is returned when a coordinate or linear index lies outside
// its shape, or when a linear index would overflow int64.
var ErrOutOfRange = errors.New("planner: index out of range")

// Ravel returns the row-major (last axis fastest) linear index of coords in
// an array of the given shape. It fails if len(coords) != len(shape), a
// coordinate is outside [0, shape[d]), or the index overflows int64.
func Ravel(shape, coords []int64) (int64, error) {
	if len(coords) != len(shape) {
		return 0, fmt.Errorf("%w: %d coordinates for rank %d", ErrOutOfRange, len(coords), len(shape))
	}
	var idx int64
	for d, c := range coords {
		if c < 0 || c >= shape[d] {
			return 0, fmt.Errorf("%w: coordinate %d on axis %d of size %d", ErrOutOfRange, c, d, shape[d])
		}
		var ok bool
		if idx, ok = mulNonNeg(idx, shape[d]); ok {
			idx, ok = addNonNeg(idx, c)
		}
		if !ok {
			return 0, fmt.Errorf("%w: linear index overflows int64", ErrOutOfRange)
		}
	}
	return idx, nil
}

// Unravel writes into coords (len(coords) == len(shape)) the coordinates of
// row-major linear index idx in an array of the given shape, the inverse of
// [Ravel]. It fails if idx is negative or not below the element count, or if
// a shape entry is negative. It never overflows and does not allocate.
func Unravel(shape []int64, idx int64, coords []int64) error {
	if len(coords) != len(shape) {
		return fmt.Errorf("%w: %d coordinates for rank %d", ErrOutOfRange, len(coords), len(shape))
	}
	if idx < 0 || len(shape) == 0 {
		return fmt.Errorf("%w: linear index %d", ErrOutOfRange, idx)
	}
	rest := idx
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] <= 0 {
			return fmt.Errorf("%w: linear index %d in an empty shape", ErrOutOfRange, idx)
		}
		coords[d] = rest % shape[d]
		rest /= shape[d]
	}
	if rest != 0 {
		return fmt.Errorf("%w: linear index %d", ErrOutOfRange, idx)
	}
	return nil
}

// RowID returns the global row-major index (the cells table's rowid) of the
// element at coords.
func (g *Geometry) RowID(coords []int64) (int64, error) {
	return Ravel(g.shape[:g.rank], coords)
}

// ElementCoords writes the coordinates of rowid id into coords, the inverse
// of [Geometry.RowID].
func (g *Geometry) ElementCoords(id int64, coords []int64) error {
	return Unravel(g.shape[:g.rank], id, coords)
}

// ChunkID returns the linear chunk id (row-major over the chunk grid) of
// the chunk at grid coordinates coords.
func (g *Geometry) ChunkID(coords []int64) (int64, error) {
	return Ravel(g.grid[:g.rank], coords)
}
