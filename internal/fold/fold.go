package fold

import (
	"errors"
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// MaxRank is the largest rank FoldBox and FoldGroups accept: the
// project's array.MaxRank. It only sizes the fixed per-axis arrays of
// normalize and the walker; normalization drops and merges axes but never
// adds one, so a rank the formats accept always fits.
const MaxRank = array.MaxRank

// ErrInvalid reports arguments that do not describe a fold: an invalid
// dtype, mismatched or out-of-range extents and bounds, a payload shorter
// than its extent, or group indices outside out. It indicates a bug in the
// caller, never bad data.
var ErrInvalid = errors.New("fold: invalid arguments")

// FoldBox folds the elements of the sub-box [lo, hi) (chunk-local,
// half-open per axis) of one chunk payload into a single Stats.
//
// data is the decoded chunk: Π extent elements of dtype dt, row-major
// (last axis fastest), little-endian, with no alignment requirement.
// An empty box gives the empty Stats.
func FoldBox(dt array.DType, data []byte, extent, lo, hi []int64) (Stats, error) {
	var out [1]Stats
	err := FoldGroups(dt, data, extent, lo, hi, nil, 0, out[:])
	return out[0], err
}

// FoldGroups folds the elements of the sub-box [lo, hi) of one chunk
// payload (as for [FoldBox]) into groups, merging into out:
//
//	element (i_0, …, i_{r−1}), lo[d] ≤ i_d < hi[d], goes to
//	out[base + Σ_d stride[d]·(i_d − lo[d])]
//
// Axes with stride[d] = 0 are reduced; the others are group keys. A nil
// stride reduces every axis into out[base]. Every out index reached must
// be in range. Each chunk's contribution to a group is folded in blocks
// and [Merge]d into out[g], so out can accumulate chunk after chunk: with
// stride from [Strides] over a whole selection and base = Σ_d
// stride[d]·(start[d] + lo[d] − selLo[d]) for a chunk starting at global
// position start, out ends up holding the groups of the whole selection.
// Strides may be negative (descending keys). FoldGroups allocates nothing
// and keeps no state: calls on distinct out slices may run concurrently
// (combine per-goroutine slices with [Merge]).
func FoldGroups(dt array.DType, data []byte, extent, lo, hi, stride []int64, base int64, out []Stats) error {
	var ax [MaxRank]axis
	m, off, empty, err := normalize(&ax, dt, data, extent, lo, hi, stride, base, len(out))
	if err != nil || empty {
		return err
	}
	if m == 0 { // a single element
		ax[0], m = axis{n: 1, ps: 1}, 1
	}
	p := newPlan(ax[:m], off, base)
	drive(dt, data, &p, out)
	return nil
}

// Strides returns the row-major strides of the groups of a box with
// per-axis sizes size when the axes with keep[d] are kept (the others get
// stride 0), and the number of groups: the product of the kept sizes, 1
// when nothing is kept. The last kept axis varies fastest.
func Strides(size []int64, keep []bool) (stride []int64, groups int64) {
	stride = make([]int64, len(size))
	groups = 1
	for d := len(size) - 1; d >= 0; d-- {
		if d < len(keep) && keep[d] {
			stride[d] = groups
			groups *= size[d]
		}
	}
	return stride, groups
}

// axis is one axis of a normalized box: n selected positions, payload
// stride ps (elements) and group stride gs.
type axis struct{ n, ps, gs int64 }

// normalize validates the arguments and describes the box by axes with
// n ≥ 2 only, merging neighbours that are contiguous both in the payload
// and in the groups (a whole chunk with every axis reduced becomes one
// axis). off is the payload offset of the corner lo, in elements.
func normalize(ax *[MaxRank]axis, dt array.DType, data []byte, extent, lo, hi, stride []int64, base int64, nout int) (m int, off int64, empty bool, err error) {
	r := len(extent)
	switch {
	case !dt.Valid():
		return 0, 0, false, fmt.Errorf("%w: dtype %v", ErrInvalid, dt)
	case r > MaxRank:
		return 0, 0, false, fmt.Errorf("%w: rank %d > %d", ErrInvalid, r, MaxRank)
	case len(lo) != r || len(hi) != r || (stride != nil && len(stride) != r):
		return 0, 0, false, fmt.Errorf("%w: rank %d with %d lo, %d hi, %d strides", ErrInvalid, r, len(lo), len(hi), len(stride))
	}
	limit := int64(len(data) / dt.Size())
	total := int64(1)
	for d := range r {
		if lo[d] < 0 || lo[d] > hi[d] || hi[d] > extent[d] {
			return 0, 0, false, fmt.Errorf("%w: axis %d: [%d, %d) not within extent %d", ErrInvalid, d, lo[d], hi[d], extent[d])
		}
		if lo[d] == hi[d] {
			empty = true
		}
		if total != 0 && extent[d] > limit/total {
			return 0, 0, false, fmt.Errorf("%w: extent %v needs more than the %d bytes of data", ErrInvalid, extent, len(data))
		}
		total *= extent[d]
	}
	if empty {
		return 0, 0, true, nil
	}
	// Group range: every reachable index must be in [0, nout).
	gmin, gmax := base, base
	for d := range r {
		if stride == nil || stride[d] == 0 || hi[d]-lo[d] == 1 {
			continue
		}
		s := stride[d]
		if s < 0 {
			s = -s
		}
		if s >= int64(nout) || hi[d]-lo[d]-1 > int64(nout)/s {
			return 0, 0, false, fmt.Errorf("%w: group stride %d on axis %d reaches beyond %d groups", ErrInvalid, stride[d], d, nout)
		}
		if stride[d] < 0 {
			gmin += stride[d] * (hi[d] - lo[d] - 1)
		} else {
			gmax += stride[d] * (hi[d] - lo[d] - 1)
		}
	}
	if gmin < 0 || gmax >= int64(nout) {
		return 0, 0, false, fmt.Errorf("%w: group indices [%d, %d] outside %d groups", ErrInvalid, gmin, gmax, nout)
	}
	// Axes inner to outer: drop singletons, merge contiguous neighbours.
	ps := int64(1)
	for d := r - 1; d >= 0; d-- {
		n := hi[d] - lo[d]
		off += lo[d] * ps
		var gs int64
		if stride != nil {
			gs = stride[d]
		}
		if n > 1 {
			if m > 0 && ps == ax[m-1].ps*ax[m-1].n && gs == ax[m-1].gs*ax[m-1].n {
				ax[m-1].n *= n
			} else {
				ax[m] = axis{n: n, ps: ps, gs: gs}
				m++
			}
		}
		ps *= extent[d]
	}
	// ax holds inner→outer; the drivers want outer→inner.
	for i, j := 0, m-1; i < j; i, j = i+1, j-1 {
		ax[i], ax[j] = ax[j], ax[i]
	}
	return m, off, false, nil
}
