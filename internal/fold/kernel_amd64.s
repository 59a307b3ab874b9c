//go:build amd64 && !purego

#include "textflag.h"

// The vector block kernels of kernel_amd64.go (AVX2, and AVX-512 for
// f32) and the F16C widening. Operand order is Go's: sources first,
// destination last (VSUBPD a, b, d computes d = b − a). Accumulators stay
// in registers for the whole run; the lanes are stored to *out at the end
// and combined by the Go caller, which also folds the tail the vector
// loops leave (fewer than 8 f32 or 4 f64 elements; after the AVX-512
// loop, fewer than 16 go to the AVX2 loop first).

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
	VMOVUPS 96(DI), Y4 // minimum per lane (f32)
	VMOVUPS 128(DI), Y5 // maximum per lane (f32)
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

	// Fold the upper half's lanes into the lower half's: s = Y0 ⊕ Y1
	// (TwoSum, its error into c), c = Y7 + Y13, q = Y2 + Y3.
	VADDPD Y1, Y0, Y8
	VSUBPD Y0, Y8, Y9
	VSUBPD Y9, Y8, Y10
	VSUBPD Y10, Y0, Y10
	VSUBPD Y9, Y1, Y9
	VADDPD Y9, Y10, Y10
	VADDPD Y13, Y7, Y7
	VADDPD Y10, Y7, Y7
	VADDPD Y3, Y2, Y2
	VMOVUPD Y8, 0(DI)
	VMOVUPD Y7, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPS Y4, 96(DI)
	VMOVUPS Y5, 128(DI)
	VMOVDQU Y12, 160(DI)
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

// func foldF32AVX512(xs *float32, n int, k float64, out *f32Lanes)
//
// foldF32AVX512 is foldF32AVX2 with 16 elements per step: n is a
// positive multiple of 16; on entry out.mn and out.mx hold the starting
// minimum and maximum. NaN lanes are masked off (K1: the non-NaN lanes
// of the 16, K2: those of the upper 8) and counted in a general
// register. The 16 float64 lanes are folded down to the 4 (and the 16
// min/max lanes to the 8) of f32Lanes before they are stored.
TEXT ·foldF32AVX512(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+24(FP), DI
	VBROADCASTSD k+16(FP), Z15
	VPXORQ Z0, Z0, Z0 // Σx (TwoSum high parts), elements 0–7 of each 16
	VPXORQ Z1, Z1, Z1 // Σx, elements 8–15
	VPXORQ Z2, Z2, Z2 // TwoSum errors, elements 0–7
	VPXORQ Z3, Z3, Z3 // TwoSum errors, elements 8–15
	VPXORQ Z16, Z16, Z16 // Σd², elements 0–7
	VPXORQ Z17, Z17, Z17 // Σd², elements 8–15
	VBROADCASTSS 96(DI), Z4 // minimum per lane (f32)
	VBROADCASTSS 128(DI), Z5 // maximum per lane (f32)
	XORQ R8, R8 // non-NaN elements
	SHRQ $4, CX

f32loop512:
	PREFETCHT0 4096(SI)
	VMOVUPS (SI), Z6
	VMINPS Z4, Z6, Z4
	VMAXPS Z5, Z6, Z5
	VCMPPS $7, Z6, Z6, K1 // ordered: the non-NaN lanes
	KMOVW K1, AX
	POPCNTL AX, AX
	ADDQ AX, R8
	KSHIFTRW $8, K1, K2

	// a = x widened, NaN lanes 0; d = a − k, NaN lanes 0.
	VCVTPS2PD.Z Y6, K1, Z8
	VEXTRACTF32X8 $1, Z6, Y9
	VCVTPS2PD.Z Y9, K2, Z9
	VSUBPD.Z Z15, Z8, K1, Z10
	VFMADD231PD Z10, Z10, Z16
	VSUBPD.Z Z15, Z9, K2, Z11
	VFMADD231PD Z11, Z11, Z17

	// TwoSum of elements 0–7 into Z0, Z2.
	VADDPD Z8, Z0, Z12
	VSUBPD Z0, Z12, Z13
	VSUBPD Z13, Z12, Z14
	VSUBPD Z14, Z0, Z14
	VSUBPD Z13, Z8, Z13
	VADDPD Z13, Z14, Z14
	VADDPD Z14, Z2, Z2
	VMOVAPD Z12, Z0

	// TwoSum of elements 8–15 into Z1, Z3.
	VADDPD Z9, Z1, Z18
	VSUBPD Z1, Z18, Z19
	VSUBPD Z19, Z18, Z20
	VSUBPD Z20, Z1, Z20
	VSUBPD Z19, Z9, Z19
	VADDPD Z19, Z20, Z20
	VADDPD Z20, Z3, Z3
	VMOVAPD Z18, Z1

	ADDQ $64, SI
	DECQ CX
	JNZ f32loop512

	// 16 → 8 lanes: s = Z0 ⊕ Z1 into Z12 (TwoSum, its error into c),
	// c = Z2 + Z3, q = Z16 + Z17 into Z8.
	VADDPD Z1, Z0, Z12
	VSUBPD Z0, Z12, Z13
	VSUBPD Z13, Z12, Z14
	VSUBPD Z14, Z0, Z14
	VSUBPD Z13, Z1, Z13
	VADDPD Z13, Z14, Z14
	VADDPD Z3, Z2, Z2
	VADDPD Z14, Z2, Z2
	VADDPD Z17, Z16, Z8

	// 8 → 4 lanes, the same with the upper 256 bits.
	VEXTRACTF64X4 $1, Z12, Y13
	VADDPD Y13, Y12, Y0
	VSUBPD Y12, Y0, Y1
	VSUBPD Y1, Y0, Y14
	VSUBPD Y14, Y12, Y14
	VSUBPD Y1, Y13, Y1
	VADDPD Y1, Y14, Y14
	VEXTRACTF64X4 $1, Z2, Y3
	VADDPD Y3, Y2, Y2
	VADDPD Y14, Y2, Y2
	VEXTRACTF64X4 $1, Z8, Y9
	VADDPD Y9, Y8, Y8

	// min/max: 16 → 8 lanes.
	VEXTRACTF32X8 $1, Z4, Y10
	VMINPS Y10, Y4, Y4
	VEXTRACTF32X8 $1, Z5, Y11
	VMAXPS Y11, Y5, Y5

	VMOVUPD Y0, 0(DI)
	VMOVUPD Y2, 32(DI)
	VMOVUPD Y8, 64(DI)
	VMOVUPS Y4, 96(DI)
	VMOVUPS Y5, 128(DI)
	MOVQ n+8(FP), R9
	SUBQ R8, R9
	MOVQ R9, 160(DI) // NaN count
	VZEROUPPER
	RET

// func cvtF16AVX2(dst *float32, src *uint16, n int)
//
// cvtF16AVX2 widens n (a positive multiple of 8) IEEE half-precision
// values to float32, exactly (F16C).
TEXT ·cvtF16AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX

cvtloop:
	VCVTPH2PS (SI), Y0
	VMOVUPS Y0, (DI)
	ADDQ $16, SI
	ADDQ $32, DI
	DECQ CX
	JNZ cvtloop
	VZEROUPPER
	RET
