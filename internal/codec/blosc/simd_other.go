//go:build !amd64 || purego

package blosc

// Without the amd64 kernels (other architectures, or -tags purego) the
// SIMD hooks do nothing and the word kernels of kernels.go do all the work.

// unshuffleSIMD does nothing: the word kernels undo the whole shuffle.
func unshuffleSIMD(dst, src []byte, m, es int) int { return 0 }

// prefixSumSIMD does nothing without the amd64 kernel.
func prefixSumSIMD(row []byte) (int, byte) { return 0, 0 }

// bitTransposeSIMD does nothing without the amd64 kernel.
func bitTransposeSIMD(plane, rows []byte, rowLen int) int { return 0 }
