//go:build !purego

package cpu

import (
	"golang.org/x/sys/cpu"

	"github.com/jitlint/jitlint/jit/ir"
)

//go:generate go run ./internal/asmgen -o f32math_amd64.s

// The AVX2+FMA kernels (f32math_amd64.s). Each computes d[i] = f(a[i]) for
// i < len(a), eight lanes at a time, stopping before the first eight lanes
// that hold an argument its polynomial does not cover or when fewer than
// eight are left; it returns the number of lanes done (a multiple of 8).

//go:noescape
func sinAVX2(d, a []float32) int

//go:noescape
func cosAVX2(d, a []float32) int

//go:noescape
func tanAVX2(d, a []float32) int

//go:noescape
func expAVX2(d, a []float32) int

//go:noescape
func expm1AVX2(d, a []float32) int

//go:noescape
func tanhAVX2(d, a []float32) int

//go:noescape
func logisticAVX2(d, a []float32) int

//go:noescape
func logAVX2(d, a []float32) int

//go:noescape
func log1pAVX2(d, a []float32) int

//go:noescape
func sqrtAVX2(d, a []float32) int

//go:noescape
func rsqrtAVX2(d, a []float32) int

//go:noescape
func powAVX2(d, a, b []float32) int

// The multiply-add kernels: d[i] = a[i]*b[i] ± c (or c - a[i]*b[i]) for
// i < len(d) (a multiple of 8), the product rounded to float32 first; c is
// c[i] (V) or c[0] (S).

//go:noescape
func mulAddVAVX2(d, a, b, c []float32)

//go:noescape
func mulAddSAVX2(d, a, b, c []float32)

//go:noescape
func mulSubVAVX2(d, a, b, c []float32)

//go:noescape
func mulSubSAVX2(d, a, b, c []float32)

//go:noescape
func subMulVAVX2(d, a, b, c []float32)

//go:noescape
func subMulSAVX2(d, a, b, c []float32)

// init installs the vector kernels when the CPU has AVX2 and FMA.
func init() {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		return
	}
	vec := map[string]func(d, a []float32) int{
		ir.Sin: sinAVX2, ir.Cos: cosAVX2, ir.Tan: tanAVX2, ir.Exp: expAVX2, ir.Expm1: expm1AVX2,
		ir.Tanh: tanhAVX2, ir.Logistic: logisticAVX2, ir.Log: logAVX2, ir.Log1p: log1pAVX2,
		ir.Sqrt: sqrtAVX2, ir.Rsqrt: rsqrtAVX2,
	}
	for prim, f := range vec {
		f32Unaries[prim].vec = f
	}
	f32PowKernel.vec = powAVX2
	mulAddF32Vec = map[mulAddVariant]func(d, a, b, c []float32){
		{mulAdd, false}: mulAddVAVX2, {mulAdd, true}: mulAddSAVX2,
		{mulSub, false}: mulSubVAVX2, {mulSub, true}: mulSubSAVX2,
		{subMul, false}: subMulVAVX2, {subMul, true}: subMulSAVX2,
	}
}
