package fold

import (
	"encoding/binary"
	"math"
)

// Candidate search for a top-k: once its heap is full, only elements
// that compare at least as well as the heap's worst value can enter it,
// and in a large chunk almost none do. FindF32 and FindF64 skip to the
// next such element, 32 f32 or 16 f64 elements per step with AVX2 on
// amd64 (find_amd64.s), a plain loop elsewhere.

// Cand is the test an element must pass to be a candidate, against the
// heap's worst value t.
type Cand int

const (
	// CandGE: x >= t, NaN fails (a descending top-k: NULL sorts last).
	CandGE Cand = iota
	// CandLE: x <= t, NaN fails (an ascending top-k that leaves NULL out).
	CandLE
	// CandLENaN: x <= t or x is NaN (an ascending top-k: NULL sorts first).
	CandLENaN
)

// FindF32 returns the index of the first of the n little-endian f32
// elements of data from element off that passes c against t, or n when
// none does.
func FindF32(data []byte, off, n int, c Cand, t float32) int {
	if n <= 0 {
		return n
	}
	xs, ok := view[float32](data, off, n)
	if !ok {
		le := binary.LittleEndian
		b := data[4*off : 4*(off+n)]
		for i := range n {
			if passes(c, math.Float32frombits(le.Uint32(b[4*i:])), t) {
				return i
			}
		}
		return n
	}
	i := 0
	if findKernel && n >= 32 {
		switch c {
		case CandGE:
			i = findF32GE(&xs[0], n/32, t)
		case CandLE:
			i = findF32LE(&xs[0], n/32, t)
		default:
			i = findF32LENaN(&xs[0], n/32, t)
		}
	}
	return findTail(xs, i, c, t)
}

// FindF64 is FindF32 for f64 elements.
func FindF64(data []byte, off, n int, c Cand, t float64) int {
	if n <= 0 {
		return n
	}
	xs, ok := view[float64](data, off, n)
	if !ok {
		le := binary.LittleEndian
		b := data[8*off : 8*(off+n)]
		for i := range n {
			if passes(c, math.Float64frombits(le.Uint64(b[8*i:])), t) {
				return i
			}
		}
		return n
	}
	i := 0
	if findKernel && n >= 16 {
		switch c {
		case CandGE:
			i = findF64GE(&xs[0], n/16, t)
		case CandLE:
			i = findF64LE(&xs[0], n/16, t)
		default:
			i = findF64LENaN(&xs[0], n/16, t)
		}
	}
	return findTail(xs, i, c, t)
}

// findTail is the first index from i of xs that passes, or len(xs). The
// kernels stop at the start of the first block holding a candidate (or
// after the last whole block), so this loop finds it within a block.
func findTail[T float32 | float64](xs []T, i int, c Cand, t T) int {
	switch c {
	case CandGE:
		for ; i < len(xs); i++ {
			if xs[i] >= t {
				return i
			}
		}
	case CandLE:
		for ; i < len(xs); i++ {
			if xs[i] <= t {
				return i
			}
		}
	default:
		for ; i < len(xs); i++ {
			if x := xs[i]; !(x > t) {
				return i
			}
		}
	}
	return len(xs)
}

// passes reports whether x passes c against t.
func passes[T float32 | float64](c Cand, x, t T) bool {
	switch c {
	case CandGE:
		return x >= t
	case CandLE:
		return x <= t
	}
	return !(x > t)
}
