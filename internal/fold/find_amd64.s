//go:build amd64 && !purego

#include "textflag.h"

// The candidate searches of find_amd64.go (AVX2). Each block is 128
// bytes (32 f32 or 16 f64 elements), compared in four registers with the
// broadcast threshold t in Y15; the loop stops at the first block with a
// lane set. Operand order is Go's: VCMPPS $p, x, Y15, d computes
// d = (t p x), so the predicates are written from t's side:
// x >= t is t <= x (LE_OQ, 0x12), x <= t is t >= x (GE_OQ, 0x1D), and
// "x <= t or NaN" is "not t < x" (NLT_UQ, 0x05).

#define BLOCK(CMP, P) \
	CMP $P, (SI), Y15, Y0; \
	CMP $P, 32(SI), Y15, Y1; \
	CMP $P, 64(SI), Y15, Y2; \
	CMP $P, 96(SI), Y15, Y3; \
	VORPS Y0, Y1, Y0; \
	VORPS Y2, Y3, Y2; \
	VORPS Y0, Y2, Y0; \
	VPTEST Y0, Y0

// func findF32GE(xs *float32, blocks int, t float32) int
TEXT ·findF32GE(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ blocks+8(FP), CX
	VBROADCASTSS t+16(FP), Y15
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JAE done
	PREFETCHT0 4096(SI)
	PREFETCHT0 4160(SI)
	BLOCK(VCMPPS, 0x12)
	JNZ done
	ADDQ $128, SI
	INCQ AX
	JMP loop

done:
	SHLQ $5, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

// func findF32LE(xs *float32, blocks int, t float32) int
TEXT ·findF32LE(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ blocks+8(FP), CX
	VBROADCASTSS t+16(FP), Y15
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JAE done
	PREFETCHT0 4096(SI)
	PREFETCHT0 4160(SI)
	BLOCK(VCMPPS, 0x1D)
	JNZ done
	ADDQ $128, SI
	INCQ AX
	JMP loop

done:
	SHLQ $5, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

// func findF32LENaN(xs *float32, blocks int, t float32) int
TEXT ·findF32LENaN(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ blocks+8(FP), CX
	VBROADCASTSS t+16(FP), Y15
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JAE done
	PREFETCHT0 4096(SI)
	PREFETCHT0 4160(SI)
	BLOCK(VCMPPS, 0x05)
	JNZ done
	ADDQ $128, SI
	INCQ AX
	JMP loop

done:
	SHLQ $5, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

// func findF64GE(xs *float64, blocks int, t float64) int
TEXT ·findF64GE(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ blocks+8(FP), CX
	VBROADCASTSD t+16(FP), Y15
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JAE done
	PREFETCHT0 4096(SI)
	PREFETCHT0 4160(SI)
	BLOCK(VCMPPD, 0x12)
	JNZ done
	ADDQ $128, SI
	INCQ AX
	JMP loop

done:
	SHLQ $4, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

// func findF64LE(xs *float64, blocks int, t float64) int
TEXT ·findF64LE(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ blocks+8(FP), CX
	VBROADCASTSD t+16(FP), Y15
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JAE done
	PREFETCHT0 4096(SI)
	PREFETCHT0 4160(SI)
	BLOCK(VCMPPD, 0x1D)
	JNZ done
	ADDQ $128, SI
	INCQ AX
	JMP loop

done:
	SHLQ $4, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

// func findF64LENaN(xs *float64, blocks int, t float64) int
TEXT ·findF64LENaN(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ blocks+8(FP), CX
	VBROADCASTSD t+16(FP), Y15
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JAE done
	PREFETCHT0 4096(SI)
	PREFETCHT0 4160(SI)
	BLOCK(VCMPPD, 0x05)
	JNZ done
	ADDQ $128, SI
	INCQ AX
	JMP loop

done:
	SHLQ $4, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET
