//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 block kernels of kernel_amd64.go. Operand order is Go's:
// sources first, destination last (VSUBPD a, b, d computes d = b − a).
// Accumulators stay in registers for the whole block; the lanes are
// stored to *out at the end and combined by the Go caller, which also
// folds the tail of fewer than 8 (f32) or 4 (f64) elements.

// func foldF32AVX2(xs *float32, n int, k float64, out *f32Lanes)
//
// n is a positive multiple of 8. On entry out.mn and out.mx hold the
// starting minimum and maximum (+Inf and −Inf per lane). Each group of
// eight elements is widened to float64 in two halves (elements 0–3 and
// 4–7), each half with its own accumulators.
TEXT ·foldF32AVX2(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+24(FP), DI
	VBROADCASTSD k+16(FP), Y15
	VXORPD Y0, Y0, Y0 // Σx (TwoSum high parts), elements 0–3 of each 8
	VXORPD Y1, Y1, Y1 // Σx, elements 4–7
	VXORPD Y7, Y7, Y7 // Σ of the TwoSum errors, elements 0–3
	VXORPD Y13, Y13, Y13 // the same, elements 4–7
	VXORPD Y2, Y2, Y2 // Σd², d = x − k, elements 0–3
	VXORPD Y3, Y3, Y3 // Σd², elements 4–7
	VPXOR Y12, Y12, Y12 // NaN count (int64 lanes)
	VMOVUPS 192(DI), Y4 // minimum per lane (f32)
	VMOVUPS 224(DI), Y5 // maximum per lane (f32)
	SHRQ $3, CX

f32loop:
	PREFETCHT0 4096(SI) // a page ahead: the hardware prefetchers stop at page boundaries
	VMOVUPS (SI), Y6
	// min/max take x as the first source: a NaN x leaves the lane as is.
	VMINPS Y4, Y6, Y4
	VMAXPS Y5, Y6, Y5

	// Elements 0–3: a = x (NaN lanes 0), d = a − k (NaN lanes 0).
	VCVTPS2PD X6, Y8
	VCMPPD $3, Y8, Y8, Y9 // unordered: all ones where x is NaN
	VPSUBQ Y9, Y12, Y12 // count −(−1) per NaN
	VANDNPD Y8, Y9, Y8
	VSUBPD Y15, Y8, Y14
	VANDNPD Y14, Y9, Y14
	VFMADD231PD Y14, Y14, Y2
	// TwoSum: t = s+a, b = t−s, e = (s−(t−b)) + (a−b); c += e; s = t.
	VADDPD Y8, Y0, Y10
	VSUBPD Y0, Y10, Y11
	VSUBPD Y11, Y10, Y14
	VSUBPD Y14, Y0, Y14
	VSUBPD Y11, Y8, Y11
	VADDPD Y11, Y14, Y14
	VADDPD Y14, Y7, Y7
	VMOVAPD Y10, Y0

	// Elements 4–7, the same into Y1, Y13, Y3.
	VEXTRACTF128 $1, Y6, X8
	VCVTPS2PD X8, Y8
	VCMPPD $3, Y8, Y8, Y9
	VPSUBQ Y9, Y12, Y12
	VANDNPD Y8, Y9, Y8
	VSUBPD Y15, Y8, Y14
	VANDNPD Y14, Y9, Y14
	VFMADD231PD Y14, Y14, Y3
	VADDPD Y8, Y1, Y10
	VSUBPD Y1, Y10, Y11
	VSUBPD Y11, Y10, Y14
	VSUBPD Y14, Y1, Y14
	VSUBPD Y11, Y8, Y11
	VADDPD Y11, Y14, Y14
	VADDPD Y14, Y13, Y13
	VMOVAPD Y10, Y1

	ADDQ $32, SI
	DECQ CX
	JNZ f32loop

	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y7, 64(DI)
	VMOVUPD Y13, 96(DI)
	VMOVUPD Y2, 128(DI)
	VMOVUPD Y3, 160(DI)
	VMOVUPS Y4, 192(DI)
	VMOVUPS Y5, 224(DI)
	VMOVDQU Y12, 256(DI)
	VZEROUPPER
	RET

// func foldF64AVX2(xs *float64, n int, k float64, out *f64Lanes)
//
// n is a positive multiple of 4. On entry out.mn and out.mx hold the
// starting minimum and maximum.
TEXT ·foldF64AVX2(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+24(FP), DI
	VBROADCASTSD k+16(FP), Y15
	VXORPD Y0, Y0, Y0 // Σx (TwoSum high parts)
	VXORPD Y1, Y1, Y1 // Σ of the TwoSum errors
	VXORPD Y3, Y3, Y3 // Σd², d = x − k
	VPXOR Y12, Y12, Y12 // NaN count (int64 lanes)
	VMOVUPD 96(DI), Y4
	VMOVUPD 128(DI), Y5
	SHRQ $2, CX

f64loop:
	PREFETCHT0 4096(SI)
	VMOVUPD (SI), Y6
	VMINPD Y4, Y6, Y4
	VMAXPD Y5, Y6, Y5
	VCMPPD $3, Y6, Y6, Y7 // NaN lanes
	VPSUBQ Y7, Y12, Y12
	VSUBPD Y15, Y6, Y13 // d = x − k
	VANDNPD Y13, Y7, Y13
	VANDNPD Y6, Y7, Y6 // x, NaN lanes 0
	VFMADD231PD Y13, Y13, Y3
	// TwoSum: t = s+x, b = t−s, e = (s−(t−b)) + (x−b); c += e; s = t.
	VADDPD Y6, Y0, Y8
	VSUBPD Y0, Y8, Y9
	VSUBPD Y9, Y8, Y10
	VSUBPD Y10, Y0, Y10
	VSUBPD Y9, Y6, Y11
	VADDPD Y11, Y10, Y10
	VADDPD Y10, Y1, Y1
	VMOVAPD Y8, Y0
	ADDQ $32, SI
	DECQ CX
	JNZ f64loop

	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y3, 64(DI)
	VMOVUPD Y4, 96(DI)
	VMOVUPD Y5, 128(DI)
	VMOVDQU Y12, 160(DI)
	VZEROUPPER
	RET
