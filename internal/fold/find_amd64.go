//go:build amd64 && !purego

package fold

// findKernel: the AVX2 candidate search of find_amd64.s runs here.
var findKernel = bestKernel >= kernAVX2

// The candidate searches of find_amd64.s: each returns 32 (f32) or 16
// (f64) times the index of the first of the blocks whole blocks of
// xs holding an element that passes the test (see Cand) against t, or
// the number of elements of the blocks when none does.

//go:noescape
func findF32GE(xs *float32, blocks int, t float32) int

//go:noescape
func findF32LE(xs *float32, blocks int, t float32) int

//go:noescape
func findF32LENaN(xs *float32, blocks int, t float32) int

//go:noescape
func findF64GE(xs *float64, blocks int, t float64) int

//go:noescape
func findF64LE(xs *float64, blocks int, t float64) int

//go:noescape
func findF64LENaN(xs *float64, blocks int, t float64) int
