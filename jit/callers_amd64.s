#include "textflag.h"

// func fpCallers(pcs []uintptr) int
//
// fpCallers fills pcs with the return addresses found by following the frame
// pointer chain from its caller's frame outwards and returns how many it
// stored. The first is the caller's return address (into the caller's
// caller). NOFRAME: BP still holds the caller's frame pointer.
TEXT ·fpCallers(SB),NOSPLIT|NOFRAME,$0-32
	MOVQ pcs_base+0(FP), DI
	MOVQ pcs_len+8(FP), CX
	MOVQ BP, AX
	XORQ DX, DX
loop:
	CMPQ DX, CX
	JGE done
	TESTQ AX, AX
	JZ done
	MOVQ 8(AX), BX
	MOVQ BX, (DI)(DX*8)
	MOVQ 0(AX), AX
	INCQ DX
	JMP loop
done:
	MOVQ DX, ret+24(FP)
	RET
