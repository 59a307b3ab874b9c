//go:build !amd64 || purego

package blosc

// unshuffleSIMD does nothing without the amd64 kernels: the word kernels
// of kernels.go undo the whole shuffle.
func unshuffleSIMD(dst, src []byte, m, es int) int { return 0 }

// prefixSumSIMD does nothing without the amd64 kernel.
func prefixSumSIMD(row []byte) (int, byte) { return 0, 0 }

// bitTransposeSIMD does nothing without the amd64 kernel.
func bitTransposeSIMD(plane, rows []byte, rowLen int) int { return 0 }
