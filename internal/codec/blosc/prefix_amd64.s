//go:build amd64 && !purego

#include "textflag.h"

// func prefixSumSSE2(p *byte, groups int) uint64
// Replaces the groups*16 bytes at p by their running sum mod 256 from 0
// and returns the last sum. Each 16 bytes get a prefix sum in four
// shift-and-add steps (PSLLO shifts whole bytes); the running total is
// kept broadcast in X7 and advanced by the block's broadcast last sum,
// so the loop-carried chain is one PADDB.
TEXT ·prefixSumSSE2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), DI
	MOVQ groups+8(FP), CX
	PXOR X7, X7

loop:
	TESTQ CX, CX
	JZ done
	MOVOU (DI), X0
	MOVO X0, X1
	PSLLO $1, X1
	PADDB X1, X0
	MOVO X0, X1
	PSLLO $2, X1
	PADDB X1, X0
	MOVO X0, X1
	PSLLO $4, X1
	PADDB X1, X0
	MOVO X0, X1
	PSLLO $8, X1
	PADDB X1, X0 // the block's own prefix sums
	MOVO X0, X2
	PUNPCKHBW X2, X2 // byte 15 at bytes 14, 15
	PUNPCKHWL X2, X2 // and at every byte of dword 3
	PSHUFL $0xFF, X2, X2 // in every byte
	PADDB X7, X0
	MOVOU X0, (DI)
	PADDB X2, X7
	ADDQ $16, DI
	DECQ CX
	JMP loop

done:
	MOVQ X7, AX
	ANDQ $0xFF, AX
	MOVQ AX, ret+16(FP)
	RET
