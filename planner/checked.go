package planner

import (
	"math"

	"github.com/tetsql/tetsql/array"
)

const (
	maxInt = math.MaxInt64
	minInt = math.MinInt64
)

// MaxRank is the highest dataset rank the planner accepts: the project's
// array.MaxRank, which every format enforces when it opens a file.
const MaxRank = array.MaxRank

// mulNonNeg returns a*b for a, b ≥ 0 and false if the product overflows int64.
func mulNonNeg(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	if a > maxInt/b {
		return 0, false
	}
	return a * b, true
}

// addNonNeg returns a+b for a, b ≥ 0 and false if the sum overflows int64.
func addNonNeg(a, b int64) (int64, bool) {
	if a > maxInt-b {
		return 0, false
	}
	return a + b, true
}

// inc returns x+1, saturating at MaxInt64.
func inc(x int64) int64 {
	if x == maxInt {
		return x
	}
	return x + 1
}

// floorInt returns floor(v) clamped to the int64 range; v must not be NaN.
func floorInt(v float64) int64 {
	f := math.Floor(v)
	switch {
	case f >= 0x1p63:
		return maxInt
	case f < -0x1p63:
		return minInt
	}
	return int64(f)
}

// ceilInt returns ceil(v) clamped to the int64 range; v must not be NaN.
func ceilInt(v float64) int64 {
	f := math.Ceil(v)
	switch {
	case f >= 0x1p63:
		return maxInt
	case f < -0x1p63:
		return minInt
	}
	return int64(f)
}

// chunkSpan returns the global half-open range [start, end) covered along
// one axis by chunk-grid coordinate c, edge chunks trimmed to size.
func chunkSpan(c, chunk, size int64) (start, end int64) {
	start = c * chunk // c < grid, so start < size: no overflow
	if chunk > size-start {
		return start, size
	}
	return start, start + chunk
}
