//go:build amd64 && !purego

package fold

import "golang.org/x/sys/cpu"

// useSIMD selects the AVX2 kernels of kernel_amd64.s: the CPU has AVX2
// and FMA, and the OS saves the YMM registers (cpu checks both).
var useSIMD = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// foldF32AVX2 folds xs[0:n] (n a positive multiple of 8) into out, as
// f32Lanes describes.
//
//go:noescape
func foldF32AVX2(xs *float32, n int, k float64, out *f32Lanes)

// foldF64AVX2 folds xs[0:n] (n a positive multiple of 4) into out, as
// f64Lanes describes.
//
//go:noescape
func foldF64AVX2(xs *float64, n int, k float64, out *f64Lanes)
