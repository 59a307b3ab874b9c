package scan

import "github.com/tetsql/tetsql/array"

// A 0-d array (one element and no axes; Blosc2 NDim files hold them) is
// served to the rest of the engine as a 1-d array of one element in one
// chunk, so that the planner, the scans and the folds, which walk axes,
// need no rank-0 case. The SQL layer shows no axis for it (see
// Array.Scalar) and the metadata tables describe the file's own geometry
// (Array.FileInfo).
type scalarArray struct {
	array.Array
	info array.Info
}

// promoteScalar returns a unless it is 0-d, else its 1-d view.
func promoteScalar(a array.Array) (array.Array, bool) {
	in := a.Info()
	if in.Rank() != 0 {
		return a, false
	}
	p := array.Info{Name: in.Name, DType: in.DType, Shape: []int64{1}, ChunkShape: []int64{1}, Attrs: in.Attrs}
	if err := p.Validate(); err != nil {
		return a, false // cannot happen: one element of a valid dtype
	}
	return &scalarArray{Array: a, info: p}, true
}

// Info is the 1-d view: shape [1], one chunk.
func (s *scalarArray) Info() *array.Info { return &s.info }

// Scalar reports whether the file's array is 0-d; the engine then sees it
// through Info as 1-d with one element, and the SQL tables show no axis.
func (a *Array) Scalar() bool { return a.file != nil }

// FileInfo is the array as its file describes it: Info, except for a 0-d
// array, whose file geometry has no axes.
func (a *Array) FileInfo() *array.Info {
	if a.file != nil {
		return a.file.Info()
	}
	return a.Info()
}
