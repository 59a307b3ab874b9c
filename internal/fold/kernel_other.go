//go:build !amd64 || purego

package fold

// useSIMD is false: every block goes through the portable kernels.
var useSIMD = false

func foldF32AVX2(*float32, int, float64, *f32Lanes) { panic("fold: no SIMD kernels") }

func foldF64AVX2(*float64, int, float64, *f64Lanes) { panic("fold: no SIMD kernels") }
