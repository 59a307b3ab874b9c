//go:build !amd64 || purego

package fold

// bestKernel: every block goes through the portable kernels.
var bestKernel = kernPortable

// hasF16C is false: halves are widened in Go.
var hasF16C = false

func cvtF16AVX2(*float32, *uint16, int) { panic("fold: no SIMD kernels") }

func foldF32AVX2(*float32, int, float64, *f32Lanes) { panic("fold: no SIMD kernels") }

func foldF32AVX512(*float32, int, float64, *f32Lanes) { panic("fold: no SIMD kernels") }

func foldF64AVX2(*float64, int, float64, *f64Lanes) { panic("fold: no SIMD kernels") }
