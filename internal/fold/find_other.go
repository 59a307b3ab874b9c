//go:build !amd64 || purego

package fold

// findKernel is false: the candidate search is the Go loop of findTail.
var findKernel = false

func findF32GE(*float32, int, float32) int    { panic("fold: no SIMD kernels") }
func findF32LE(*float32, int, float32) int    { panic("fold: no SIMD kernels") }
func findF32LENaN(*float32, int, float32) int { panic("fold: no SIMD kernels") }
func findF64GE(*float64, int, float64) int    { panic("fold: no SIMD kernels") }
func findF64LE(*float64, int, float64) int    { panic("fold: no SIMD kernels") }
func findF64LENaN(*float64, int, float64) int { panic("fold: no SIMD kernels") }
