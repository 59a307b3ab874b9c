//go:build amd64 && !purego

#include "textflag.h"

// SWAPBITS(a, b, s, M): in every byte lane, exchange the bits of a whose
// index has bit s set with the bits of b whose index has it clear (M
// selects the latter); X15 is scratch. The same step as swapBits.
#define SWAPBITS(a, b, s, M) \
	MOVO a, X15; \
	PSRLQ $s, X15; \
	PXOR b, X15; \
	PAND M, X15; \
	PXOR X15, b; \
	PSLLQ $s, X15; \
	PXOR X15, a

// func bitTransposeSSE2(dst, src *byte, rowLen, groups int)
// One byte plane of the bit unshuffle, 16 row bytes (128 elements) per
// group: row k of the plane's 8 rows starts at src + k*rowLen; the 8 rows'
// next 16 bytes get their bits transposed in each byte lane (three
// SWAPBITS levels, as transposeBitLanes), which leaves element 8g+i's
// byte in byte g of register i; three levels of unpacks then put the 128
// bytes in element order at dst.
TEXT ·bitTransposeSSE2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rowLen+16(FP), DX
	MOVQ groups+24(FP), CX
	LEAQ (DX)(DX*2), R11 // 3 rowLen
	MOVQ $0x0F0F0F0F0F0F0F0F, AX
	MOVQ AX, X8
	PUNPCKLQDQ X8, X8
	MOVQ $0x3333333333333333, AX
	MOVQ AX, X9
	PUNPCKLQDQ X9, X9
	MOVQ $0x5555555555555555, AX
	MOVQ AX, X10
	PUNPCKLQDQ X10, X10

loop:
	TESTQ CX, CX
	JZ done
	LEAQ (SI)(DX*4), R12 // row 4
	MOVOU (SI), X0
	MOVOU (SI)(DX*1), X1
	MOVOU (SI)(DX*2), X2
	MOVOU (SI)(R11*1), X3
	MOVOU (R12), X4
	MOVOU (R12)(DX*1), X5
	MOVOU (R12)(DX*2), X6
	MOVOU (R12)(R11*1), X7
	SWAPBITS(X0, X4, 4, X8)
	SWAPBITS(X1, X5, 4, X8)
	SWAPBITS(X2, X6, 4, X8)
	SWAPBITS(X3, X7, 4, X8)
	SWAPBITS(X0, X2, 2, X9)
	SWAPBITS(X1, X3, 2, X9)
	SWAPBITS(X4, X6, 2, X9)
	SWAPBITS(X5, X7, 2, X9)
	SWAPBITS(X0, X1, 1, X10)
	SWAPBITS(X2, X3, 1, X10)
	SWAPBITS(X4, X5, 1, X10)
	SWAPBITS(X6, X7, 1, X10)
	// Unpack bytes: register i pairs with i+1 for groups 0..7 (low)
	// and 8..15 (high).
	MOVO X0, X11
	PUNPCKLBW X1, X0  // 01 g0-7
	PUNPCKHBW X1, X11 // 01 g8-15
	MOVO X2, X12
	PUNPCKLBW X3, X2  // 23 g0-7
	PUNPCKHBW X3, X12 // 23 g8-15
	MOVO X4, X13
	PUNPCKLBW X5, X4  // 45 g0-7
	PUNPCKHBW X5, X13 // 45 g8-15
	MOVO X6, X14
	PUNPCKLBW X7, X6  // 67 g0-7
	PUNPCKHBW X7, X14 // 67 g8-15
	// Unpack 16-bit pairs into 4-byte quarters.
	MOVO X0, X1
	PUNPCKLWL X2, X0  // 0123 g0-3
	PUNPCKHWL X2, X1  // 0123 g4-7
	MOVO X11, X3
	PUNPCKLWL X12, X11 // 0123 g8-11
	PUNPCKHWL X12, X3  // 0123 g12-15
	MOVO X4, X5
	PUNPCKLWL X6, X4  // 4567 g0-3
	PUNPCKHWL X6, X5  // 4567 g4-7
	MOVO X13, X7
	PUNPCKLWL X14, X13 // 4567 g8-11
	PUNPCKHWL X14, X7  // 4567 g12-15
	// Unpack 4-byte halves into 8-byte groups and store.
	MOVO X0, X2
	PUNPCKLLQ X4, X0 // g0, g1
	PUNPCKHLQ X4, X2 // g2, g3
	MOVOU X0, (DI)
	MOVOU X2, 16(DI)
	MOVO X1, X2
	PUNPCKLLQ X5, X1 // g4, g5
	PUNPCKHLQ X5, X2 // g6, g7
	MOVOU X1, 32(DI)
	MOVOU X2, 48(DI)
	MOVO X11, X2
	PUNPCKLLQ X13, X11 // g8, g9
	PUNPCKHLQ X13, X2  // g10, g11
	MOVOU X11, 64(DI)
	MOVOU X2, 80(DI)
	MOVO X3, X2
	PUNPCKLLQ X7, X3 // g12, g13
	PUNPCKHLQ X7, X2 // g14, g15
	MOVOU X3, 96(DI)
	MOVOU X2, 112(DI)
	ADDQ $16, SI
	ADDQ $128, DI
	DECQ CX
	JMP loop

done:
	RET
