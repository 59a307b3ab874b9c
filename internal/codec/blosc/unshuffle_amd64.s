//go:build amd64 && !purego

#include "textflag.h"

// SSE2 byte unshuffles (SSE2 is part of every amd64 CPU). Each routine
// undoes the shuffle of groups*16 (or groups*8) elements: row b of the
// shuffled block starts at src + b*m and holds byte b of every element.
// Go operand order: PUNPCKLBW X1, X0 sets X0 to the low-half interleave
// of X0 and X1 (X0's byte first).

// func unshuffle2SSE2(dst, src *byte, m, groups int)
TEXT ·unshuffle2SSE2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ m+16(FP), DX
	MOVQ groups+24(FP), CX
	LEAQ (SI)(DX*1), R8

loop2:
	TESTQ CX, CX
	JZ done2
	MOVOU (SI), X0
	MOVOU (R8), X1
	MOVO X0, X2
	PUNPCKLBW X1, X0
	PUNPCKHBW X1, X2
	MOVOU X0, (DI)
	MOVOU X2, 16(DI)
	ADDQ $16, SI
	ADDQ $16, R8
	ADDQ $32, DI
	DECQ CX
	JMP loop2

done2:
	RET

// func unshuffle4SSE2(dst, src *byte, m, groups int)
TEXT ·unshuffle4SSE2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ m+16(FP), DX
	MOVQ groups+24(FP), CX
	LEAQ (SI)(DX*1), R8
	LEAQ (R8)(DX*1), R9
	LEAQ (R9)(DX*1), R10

loop4:
	TESTQ CX, CX
	JZ done4
	MOVOU (SI), X0  // byte 0 of elements 0..15
	MOVOU (R8), X1  // byte 1
	MOVOU (R9), X2  // byte 2
	MOVOU (R10), X3 // byte 3
	MOVO X0, X4
	PUNPCKLBW X1, X0 // bytes 0,1 of elements 0..7
	PUNPCKHBW X1, X4 // of elements 8..15
	MOVO X2, X5
	PUNPCKLBW X3, X2 // bytes 2,3 of elements 0..7
	PUNPCKHBW X3, X5 // of elements 8..15
	MOVO X0, X6
	PUNPCKLWL X2, X0 // elements 0..3
	PUNPCKHWL X2, X6 // elements 4..7
	MOVO X4, X7
	PUNPCKLWL X5, X4 // elements 8..11
	PUNPCKHWL X5, X7 // elements 12..15
	MOVOU X0, (DI)
	MOVOU X6, 16(DI)
	MOVOU X4, 32(DI)
	MOVOU X7, 48(DI)
	ADDQ $16, SI
	ADDQ $16, R8
	ADDQ $16, R9
	ADDQ $16, R10
	ADDQ $64, DI
	DECQ CX
	JMP loop4

done4:
	RET

// func unshuffle8SSE2(dst, src *byte, m, groups int)
// Eight elements per group: 8 bytes from each of the 8 rows.
TEXT ·unshuffle8SSE2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ m+16(FP), DX
	MOVQ groups+24(FP), CX
	LEAQ (DX)(DX*2), R11 // 3m
	LEAQ (SI)(DX*4), R12 // row 4

loop8:
	TESTQ CX, CX
	JZ done8
	MOVQ (SI), X0
	MOVQ (SI)(DX*1), X1
	MOVQ (SI)(DX*2), X2
	MOVQ (SI)(R11*1), X3
	MOVQ (R12), X4
	MOVQ (R12)(DX*1), X5
	MOVQ (R12)(DX*2), X6
	MOVQ (R12)(R11*1), X7
	PUNPCKLBW X1, X0 // bytes 0,1 of elements 0..7
	PUNPCKLBW X3, X2 // bytes 2,3
	PUNPCKLBW X5, X4 // bytes 4,5
	PUNPCKLBW X7, X6 // bytes 6,7
	MOVO X0, X1
	PUNPCKLWL X2, X0 // bytes 0..3 of elements 0..3
	PUNPCKHWL X2, X1 // of elements 4..7
	MOVO X4, X5
	PUNPCKLWL X6, X4 // bytes 4..7 of elements 0..3
	PUNPCKHWL X6, X5 // of elements 4..7
	MOVO X0, X2
	PUNPCKLLQ X4, X0 // elements 0,1
	PUNPCKHLQ X4, X2 // elements 2,3
	MOVO X1, X3
	PUNPCKLLQ X5, X1 // elements 4,5
	PUNPCKHLQ X5, X3 // elements 6,7
	MOVOU X0, (DI)
	MOVOU X2, 16(DI)
	MOVOU X1, 32(DI)
	MOVOU X3, 48(DI)
	ADDQ $8, SI
	ADDQ $8, R12
	ADDQ $64, DI
	DECQ CX
	JMP loop8

done8:
	RET
