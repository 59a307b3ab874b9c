//go:build amd64 && !purego

package fold

import "golang.org/x/sys/cpu"

// bestKernel is the fastest kernel level this CPU runs: AVX2 and FMA
// (with the OS saving the YMM registers; cpu checks both) for the
// kernels of kernel_amd64.s, and AVX-512 F and DQ with POPCNT (and ZMM
// state saved) for foldF32AVX512.
var bestKernel = func() int {
	switch {
	case !cpu.X86.HasAVX2 || !cpu.X86.HasFMA:
		return kernPortable
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasPOPCNT:
		return kernAVX512
	}
	return kernAVX2
}()

// hasF16C reports whether cvtF16AVX2 may run (with the AVX2 kernels).
var hasF16C = bestKernel >= kernAVX2 && cpu.X86.HasF16C

// cvtF16AVX2 widens n halves (n a positive multiple of 8) to float32.
//
//go:noescape
func cvtF16AVX2(dst *float32, src *uint16, n int)

// foldF32AVX2 folds xs[0:n] (n a positive multiple of 8) into out, as
// f32Lanes describes.
//
//go:noescape
func foldF32AVX2(xs *float32, n int, k float64, out *f32Lanes)

// foldF32AVX512 folds xs[0:n] (n a positive multiple of 16) into out,
// as f32Lanes describes.
//
//go:noescape
func foldF32AVX512(xs *float32, n int, k float64, out *f32Lanes)

// foldF64AVX2 folds xs[0:n] (n a positive multiple of 4) into out, as
// f64Lanes describes.
//
//go:noescape
func foldF64AVX2(xs *float64, n int, k float64, out *f64Lanes)
