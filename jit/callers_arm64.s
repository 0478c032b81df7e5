#include "textflag.h"

// func fpCallers(pcs []uintptr) int
//
// fpCallers fills pcs with the return addresses found by following the frame
// pointer chain (R29) from its caller's frame outwards and returns how many
// it stored; each frame record holds the caller's frame pointer and, one word
// above it, the return address (the layout the runtime's own frame-pointer
// unwinder reads). NOFRAME: R29 still holds the caller's frame pointer.
TEXT ·fpCallers(SB),NOSPLIT|NOFRAME,$0-32
	MOVD	pcs_base+0(FP), R0
	MOVD	pcs_len+8(FP), R1
	MOVD	R29, R2
	MOVD	$0, R3
loop:
	CMP	R1, R3
	BGE	done
	CBZ	R2, done
	MOVD	8(R2), R4
	MOVD	R4, (R0)(R3<<3)
	MOVD	0(R2), R2
	ADD	$1, R3
	B	loop
done:
	MOVD	R3, ret+24(FP)
	RET
