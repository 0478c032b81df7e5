package main

import (
	"bytes"
	"fmt"
)

// gemmKernel describes one GEMM micro-kernel (see jit/cpu/gemm_kernel.go):
// an mr×nr tile of C accumulated in registers over kc steps, each step
// loading one row of nr values of the packed B panel into vecs registers
// and, per row i of the tile, multiplying them by A[i, p] broadcast,
// accumulating with one fused multiply-add per register, from zero and in
// order over p. The tile is then stored, or added to C in one rounding.
//
// A[i, p] is broadcast into a register (VBROADCASTSS/SD, rotating over the
// registers the tile leaves free) and shared by the row's FMAs. AVX-512's
// embedded broadcast (an FMA with a {1to16} memory operand) saves the
// broadcast but makes every FMA a load: 26 loads per 24 FMAs in the 12×32
// tile, more than the two vector loads per cycle of the cores measured,
// and it ran 9 % slower on an AVX-512 Xeon (bench/RESULTS.md). The C tile's
// lines are prefetched before the k loop, so that a tile C holds outside
// the caches (a fresh result) arrives while the tile is computed.
type gemmKernel struct {
	name   string
	elem   int    // element size in bytes
	sfx    string // PS or PD
	reg    string // Y (AVX2) or Z (AVX-512)
	lanes  int    // elements per register
	mr, nr int
}

var gemmKernels = []gemmKernel{
	{name: "gemmF32AVX2", elem: 4, sfx: "PS", reg: "Y", lanes: 8, mr: 6, nr: 16},
	{name: "gemmF64AVX2", elem: 8, sfx: "PD", reg: "Y", lanes: 4, mr: 6, nr: 8},
	{name: "gemmF32AVX512", elem: 4, sfx: "PS", reg: "Z", lanes: 16, mr: 12, nr: 32},
	{name: "gemmF64AVX512", elem: 8, sfx: "PD", reg: "Z", lanes: 8, mr: 12, nr: 16},
}

// emit writes the kernel: func name(kc int, a, b, c *T, ldc int, accum
// bool), with kc > 0 and ldc in elements.
func (k gemmKernel) emit(w *bytes.Buffer) {
	in := func(format string, args ...any) { fmt.Fprintf(w, "\t"+format+"\n", args...) }
	vecs := k.nr / k.lanes
	acc := func(i, v int) string { return fmt.Sprintf("%s%d", k.reg, i*vecs+v) }
	first := k.mr * vecs // the B registers follow the accumulators
	bReg := func(v int) string { return fmt.Sprintf("%s%d", k.reg, first+v) }
	ty := map[int]string{4: "float32", 8: "float64"}[k.elem]
	fmt.Fprintf(w, "\n// func %s(kc int, a, b, c *%s, ldc int, accum bool)\n", k.name, ty)
	fmt.Fprintf(w, "TEXT ·%s(SB), NOSPLIT, $0-41\n", k.name)
	in("MOVQ kc+0(FP), CX")
	in("MOVQ a+8(FP), SI")
	in("MOVQ b+16(FP), DI")
	in("MOVQ c+24(FP), DX")
	in("MOVQ ldc+32(FP), R8")
	in("SHLQ $%d, R8", map[int]int{4: 2, 8: 3}[k.elem])
	zero := "VXORPS" // AVX; VXORPS on ZMM registers would need AVX512DQ
	if k.reg == "Z" {
		zero = "VPXORD"
	}
	for r := 0; r < first; r++ {
		x := fmt.Sprintf("%s%d", k.reg, r)
		in("%s %s, %s, %s", zero, x, x, x)
	}
	// The broadcast registers: those after the B ones.
	nb := map[string]int{"Y": 16, "Z": 32}[k.reg] - first - vecs
	in("MOVQ DX, R9")
	for i := 0; i < k.mr; i++ {
		for l := 0; l < k.nr*k.elem; l += 64 {
			in("PREFETCHT0 %d(R9)", l)
		}
		if i < k.mr-1 {
			in("ADDQ R8, R9")
		}
	}
	// The k loop, unrolled by four, then one step at a time.
	step := func(p int) {
		aOff, bOff := p*k.mr*k.elem, p*k.nr*k.elem
		for v := 0; v < vecs; v++ {
			in("VMOVUP%s %d(DI), %s", k.sfx[1:], bOff+v*k.lanes*k.elem, bReg(v))
		}
		bcast := map[int]string{4: "VBROADCASTSS", 8: "VBROADCASTSD"}[k.elem]
		for i := 0; i < k.mr; i++ {
			off := aOff + i*k.elem
			t := fmt.Sprintf("%s%d", k.reg, first+vecs+i%nb)
			in("%s %d(SI), %s", bcast, off, t)
			for v := 0; v < vecs; v++ {
				in("VFMADD231%s %s, %s, %s", k.sfx, bReg(v), t, acc(i, v))
			}
		}
	}
	const unroll = 4
	in("MOVQ CX, BX")
	in("SHRQ $2, BX")
	in("ANDQ $3, CX")
	in("TESTQ BX, BX")
	in("JZ tail")
	fmt.Fprintf(w, "loop4:\n")
	for p := range unroll {
		step(p)
	}
	in("ADDQ $%d, SI", unroll*k.mr*k.elem)
	in("ADDQ $%d, DI", unroll*k.nr*k.elem)
	in("DECQ BX")
	in("JNZ loop4")
	fmt.Fprintf(w, "tail:\n")
	in("TESTQ CX, CX")
	in("JZ done")
	fmt.Fprintf(w, "loop1:\n")
	step(0)
	in("ADDQ $%d, SI", k.mr*k.elem)
	in("ADDQ $%d, DI", k.nr*k.elem)
	in("DECQ CX")
	in("JNZ loop1")
	fmt.Fprintf(w, "done:\n")
	in("MOVBLZX accum+40(FP), AX")
	in("TESTL AX, AX")
	in("JZ store")
	for i := 0; i < k.mr; i++ {
		for v := 0; v < vecs; v++ {
			in("VADD%s %d(DX), %s, %s", k.sfx, v*k.lanes*k.elem, acc(i, v), acc(i, v))
		}
		in("ADDQ R8, DX")
	}
	in("MOVQ c+24(FP), DX")
	fmt.Fprintf(w, "store:\n")
	for i := 0; i < k.mr; i++ {
		for v := 0; v < vecs; v++ {
			in("VMOVUP%s %s, %d(DX)", k.sfx[1:], acc(i, v), v*k.lanes*k.elem)
		}
		if i < k.mr-1 {
			in("ADDQ R8, DX")
		}
	}
	in("VZEROUPPER")
	in("RET")
}

// emitFMALoop writes func name(n int): n iterations of 16 (AVX-512) or 12
// (AVX2) independent vector FMAs, the FMA throughput that
// BenchmarkMicroKernel measures a kernel against.
func emitFMALoop(w *bytes.Buffer, name, reg string) {
	in := func(format string, args ...any) { fmt.Fprintf(w, "\t"+format+"\n", args...) }
	accs, zero := 16, "VPXORD"
	if reg == "Y" {
		accs, zero = 12, "VXORPS"
	}
	fmt.Fprintf(w, "\n// func %s(n int)\n", name)
	fmt.Fprintf(w, "TEXT ·%s(SB), NOSPLIT, $0-8\n", name)
	in("MOVQ n+0(FP), CX")
	for r := 0; r < accs+2; r++ {
		x := fmt.Sprintf("%s%d", reg, r)
		in("%s %s, %s, %s", zero, x, x, x)
	}
	in("TESTQ CX, CX")
	in("JZ fmadone")
	fmt.Fprintf(w, "fmaloop:\n")
	for r := 0; r < accs; r++ {
		in("VFMADD231PS %s%d, %s%d, %s%d", reg, accs, reg, accs+1, reg, r)
	}
	in("DECQ CX")
	in("JNZ fmaloop")
	fmt.Fprintf(w, "fmadone:\n")
	in("VZEROUPPER")
	in("RET")
}

// generateGemm returns the text of gemm_amd64.s.
func generateGemm() []byte {
	var w bytes.Buffer
	w.WriteString("// Code generated by jit/cpu/internal/asmgen; DO NOT EDIT.\n\n//go:build !purego\n\n#include \"textflag.h\"\n")
	w.WriteString("\n// The GEMM micro-kernels of jit/cpu/gemm_kernel.go: AVX2+FMA (6×16 float32,\n// 6×8 float64) and AVX-512F (12×32 float32, 12×16 float64), and FMA\n// throughput loops.\n")
	for _, k := range gemmKernels {
		k.emit(&w)
	}
	w.WriteString("\n// The FMA throughput loops of BenchmarkMicroKernel (jit/cpu/gemm_bench_test.go).\n")
	emitFMALoop(&w, "fmaLoopAVX2", "Y")
	emitFMALoop(&w, "fmaLoopAVX512", "Z")
	return w.Bytes()
}
