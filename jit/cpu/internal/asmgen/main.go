// Command asmgen writes the CPU backend's assembly: jit/cpu/f32math_amd64.s,
// the AVX2+FMA kernels of the float32 transcendentals and multiply-adds
// (-kernels f32math, the default), and jit/cpu/gemm_amd64.s, the GEMM
// micro-kernels (-kernels gemm, gemm.go). A
// transcendental kernel widens float32 lanes to float64 and performs,
// instruction for instruction, the float64 operations of its pure-Go twin
// in jit/cpu/f32math.go, with the constants of jit/cpu/internal/f32poly;
// the two therefore agree bit for bit. (sqrt is the exception: vsqrtps on
// eight float32 lanes, correctly rounded as the float64 sqrt rounded to
// float32 is.) Each loop iteration covers eight lanes as two interleaved
// groups of four (see allocate); a kernel stops before eight lanes holding
// an argument its polynomial does not cover, or when fewer than eight are
// left, and returns the number of lanes done; the Go caller computes the
// next four lanes with the scalar code and calls it again.
//
// Usage (from jit/cpu): go generate, or go run ./internal/asmgen [-kernels
// gemm -o gemm_amd64.s]. asmgen_test.go checks that the committed files
// are current.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"sort"

	p "github.com/jitlint/jitlint/jit/cpu/internal/f32poly"
)

func main() {
	out := flag.String("o", "f32math_amd64.s", "output file")
	kernels := flag.String("kernels", "f32math", "which file to write: f32math (the float32 math and multiply-add kernels) or gemm (the GEMM micro-kernels)")
	flag.Parse()
	gens := map[string]func() []byte{"f32math": generate, "gemm": generateGemm}
	gen, ok := gens[*kernels]
	if !ok {
		log.Fatalf("-kernels %q: want f32math or gemm", *kernels)
	}
	if err := os.WriteFile(*out, gen(), 0o644); err != nil {
		log.Fatal(err)
	}
}

// vcmppd predicates.
const (
	cmpLT    = 1
	cmpUnord = 3
	cmpNLT   = 5
	cmpNGT   = 10
)

// gen accumulates the text of the kernels and the constants they use.
type gen struct {
	text   bytes.Buffer
	consts map[string]uint64
	rec    *[]string
}

// k returns the memory operand of a four-lane constant with bits u.
func (g *gen) k(u uint64) string {
	name := fmt.Sprintf("k%016x", u)
	g.consts[name] = u
	return name + "<>(SB)"
}

// f returns the memory operand of a four-lane float64 constant.
func (g *gen) f(v float64) string { return g.k(math.Float64bits(v)) }

// i emits one instruction, or records it while rec is set.
func (g *gen) i(format string, args ...any) {
	if g.rec != nil {
		*g.rec = append(*g.rec, fmt.Sprintf(format, args...))
		return
	}
	fmt.Fprintf(&g.text, "\t"+format+"\n", args...)
}

// horner leaves c[0] + c[1]·x + … in dst (dst != x).
func (g *gen) horner(dst, x string, c []float64) {
	g.i("VMOVUPD %s, %s", g.f(c[len(c)-1]), dst)
	for j := len(c) - 2; j >= 0; j-- {
		g.i("VFMADD213PD %s, %s, %s", g.f(c[j]), x, dst)
	}
}

// notBelow sets dst to the lanes where !(x < hi) (NaN included).
func (g *gen) notBelow(dst, x string, hi float64) {
	g.i("VCMPPD $%d, %s, %s, %s", cmpNLT, g.f(hi), x, dst)
}

// absTo leaves |src| in dst.
func (g *gen) absTo(src, dst string) {
	g.i("VANDPD %s, %s, %s", g.k(^uint64(0)>>1), src, dst)
}

// trigReduce: Y1 = |x| → Y2 = r, Y3 = k + MagicRound (Y4 = k).
func (g *gen) trigReduce() {
	g.i("VMOVUPD %s, Y3", g.f(p.MagicRound))
	g.i("VFMADD231PD %s, Y1, Y3", g.f(p.TwoOverPi))
	g.i("VSUBPD %s, Y3, Y4", g.f(p.MagicRound))
	g.i("VMOVAPD Y1, Y2")
	for _, c := range []float64{p.PiO2A, p.PiO2B, p.PiO2C} {
		g.i("VFNMADD231PD %s, Y4, Y2", g.f(c))
	}
}

// sinCos: Y2 = r → Y5 = sin r, Y6 = cos r (Y7 = r², Y8 = r³).
func (g *gen) sinCos() {
	g.i("VMULPD Y2, Y2, Y7")
	g.i("VMULPD Y7, Y2, Y8")
	g.horner("Y5", "Y7", p.Sin)
	g.i("VFMADD213PD Y2, Y8, Y5")
	g.horner("Y6", "Y7", p.Cos)
	g.i("VFMADD213PD %s, Y7, Y6", g.f(1))
}

// flipSign flips the sign of v where the sign bit of s is set (clobbers s).
func (g *gen) flipSign(s, v string) {
	g.i("VANDPD %s, %s, %s", g.k(1<<63), s, s)
	g.i("VXORPD %s, %s, %s", s, v, v)
}

// trig: the shared part of sin, cos and tan.
func (g *gen) trig() {
	g.absTo("Y0", "Y1")
	g.trigReduce()
	g.sinCos()
	g.i("VPSLLQ $63, Y3, Y9") // odd quadrant mask
}

// expParts: Y1 = x → Y3 = 2^k, Y5 = e^r - 1 (clobbers Y2, Y4, Y7).
func (g *gen) expParts() {
	g.i("VMOVUPD %s, Y3", g.f(p.MagicRound))
	g.i("VFMADD231PD %s, Y1, Y3", g.f(p.InvLn2))
	g.i("VSUBPD %s, Y3, Y4", g.f(p.MagicRound))
	g.i("VMOVAPD Y1, Y2")
	g.i("VFNMADD231PD %s, Y4, Y2", g.f(p.Ln2Hi))
	g.i("VFNMADD231PD %s, Y4, Y2", g.f(p.Ln2Lo))
	g.i("VMULPD Y2, Y2, Y7")
	g.horner("Y5", "Y2", p.Expm1)
	g.i("VFMADD213PD Y2, Y7, Y5")
	g.i("VPADDQ %s, Y3, Y3", g.k(1023))
	g.i("VPSLLQ $52, Y3, Y3")
}

// clampTo leaves x clamped to [-m, m] in dst.
func (g *gen) clampTo(x, dst string, m float64) {
	g.i("VMINPD %s, %s, %s", g.f(m), x, dst)
	g.i("VMAXPD %s, %s, %s", g.f(-m), dst, dst)
}

// logPos: Y1 = d → Y5 = log d (clobbers Y2-Y4, Y6-Y9).
func (g *gen) logPos() {
	g.i("VPSUBQ %s, Y1, Y2", g.k(p.LogOffset))
	g.i("VPADDQ %s, Y2, Y3", g.k(1<<62))
	g.i("VPSRLQ $52, Y3, Y3")
	g.i("VPOR %s, Y3, Y3", g.k(0x4330000000000000))
	g.i("VSUBPD %s, Y3, Y3", g.f(0x1p52+1024))
	g.i("VPAND %s, Y2, Y4", g.k(0xfff<<52))
	g.i("VPSUBQ Y4, Y1, Y4")
	g.i("VSUBPD %s, Y4, Y4", g.f(1))
	g.i("VADDPD %s, Y4, Y6", g.f(2))
	g.i("VDIVPD Y6, Y4, Y4")
	g.i("VMULPD Y4, Y4, Y7")
	g.i("VADDPD Y4, Y4, Y8")
	g.i("VMULPD Y7, Y8, Y9")
	g.horner("Y5", "Y7", p.Log)
	g.i("VFMADD213PD Y8, Y9, Y5")
	g.i("VFMADD231PD %s, Y3, Y5", g.f(p.Ln2Hi))
}

// tinyKeepsX replaces the result (Y5) by x (Y0) where |x| < Tiny.
func (g *gen) tinyKeepsX() {
	g.absTo("Y0", "Y8")
	g.i("VCMPPD $%d, %s, Y8, Y9", cmpLT, g.f(p.Tiny))
	g.i("VBLENDVPD Y9, Y0, Y5, Y5")
}

// outsideOpen sets dst to the lanes of x not in the open interval (lo, +Inf).
func (g *gen) outsideOpen(x, dst string, lo float64) {
	g.i("VCMPPD $%d, %s, %s, %s", cmpNGT, g.f(lo), x, dst)
	g.i("VCMPPD $%d, %s, %s, Y14", cmpNLT, g.f(math.Inf(1)), x)
	g.i("VORPD Y14, %s, %s", dst, dst)
}

// unary describes one kernel: special sets Y15 from x in Y0 (nil when every
// lane is covered); body computes the result into Y5.
type unary struct {
	name    string
	special func(g *gen)
	body    func(g *gen)
}

func nanLanes(g *gen) { g.i("VCMPPD $%d, Y0, Y0, Y15", cmpUnord) }

func trigLanes(g *gen) {
	g.absTo("Y0", "Y1")
	g.notBelow("Y15", "Y1", p.TrigLimit)
}

var unaries = []unary{
	{"sin", trigLanes, func(g *gen) {
		g.trig()
		g.i("VBLENDVPD Y9, Y6, Y5, Y5")
		g.i("VPSLLQ $62, Y3, Y10")
		g.i("VXORPD Y0, Y10, Y10")
		g.flipSign("Y10", "Y5")
	}},
	{"cos", trigLanes, func(g *gen) {
		g.trig()
		g.i("VBLENDVPD Y9, Y5, Y6, Y5")
		g.i("VPADDQ %s, Y3, Y10", g.k(1))
		g.i("VPSLLQ $62, Y10, Y10")
		g.flipSign("Y10", "Y5")
	}},
	{"tan", trigLanes, func(g *gen) {
		g.trig()
		g.i("VBLENDVPD Y9, Y6, Y5, Y11")
		g.i("VBLENDVPD Y9, Y5, Y6, Y12")
		g.i("VDIVPD Y12, Y11, Y5")
		g.i("VXORPD Y0, Y9, Y10")
		g.flipSign("Y10", "Y5")
	}},
	{"exp", nanLanes, func(g *gen) {
		g.clampTo("Y0", "Y1", p.ExpClamp)
		g.expParts()
		g.i("VFMADD213PD Y3, Y3, Y5")
	}},
	{"expm1", nanLanes, func(g *gen) {
		g.clampTo("Y0", "Y1", p.ExpClamp)
		g.expParts()
		g.i("VSUBPD %s, Y3, Y6", g.f(1))
		g.i("VFMADD213PD Y6, Y3, Y5")
		g.tinyKeepsX()
	}},
	{"tanh", nanLanes, func(g *gen) {
		g.absTo("Y0", "Y1")
		g.i("VMINPD %s, Y1, Y1", g.f(p.TanhClamp))
		g.i("VADDPD Y1, Y1, Y1")
		g.expParts()
		g.i("VSUBPD %s, Y3, Y6", g.f(1))
		g.i("VFMADD213PD Y6, Y3, Y5")
		g.i("VADDPD %s, Y5, Y8", g.f(2))
		g.i("VDIVPD Y8, Y5, Y5")
		g.i("VMOVAPD Y0, Y10")
		g.flipSign("Y10", "Y5")
	}},
	{"logistic", nanLanes, func(g *gen) {
		g.clampTo("Y0", "Y1", p.ExpClamp)
		g.i("VXORPD %s, Y1, Y1", g.k(1<<63))
		g.expParts()
		g.i("VFMADD213PD Y3, Y3, Y5")
		g.i("VADDPD %s, Y5, Y5", g.f(1))
		g.i("VMOVUPD %s, Y8", g.f(1))
		g.i("VDIVPD Y5, Y8, Y5")
	}},
	{"log", func(g *gen) { g.outsideOpen("Y0", "Y15", 0) }, func(g *gen) {
		g.i("VMOVAPD Y0, Y1")
		g.logPos()
	}},
	{"log1p", func(g *gen) { g.outsideOpen("Y0", "Y15", -1) }, func(g *gen) {
		g.i("VADDPD %s, Y0, Y1", g.f(1))
		g.logPos()
		g.tinyKeepsX()
	}},
	{"rsqrt", nil, func(g *gen) {
		g.i("VSQRTPD Y0, Y1")
		g.i("VMOVUPD %s, Y5", g.f(1))
		g.i("VDIVPD Y1, Y5, Y5")
	}},
}

// mulAdd describes a float32 multiply-add kernel d = a*b ± c (or c - a*b)
// over eight lanes per iteration: the product is rounded to float32 before
// the addition (vmulps, then op with c in %s), as in ops_muladd.go's
// mulAddLoop; scalar kernels read c[0] only.
type mulAdd struct {
	name   string
	scalar bool
	op     string
}

var mulAdds = []mulAdd{
	{"mulAddV", false, "VADDPS %s, Y0, Y0"},
	{"mulAddS", true, "VADDPS %s, Y0, Y0"},
	{"mulSubV", false, "VSUBPS %s, Y0, Y0"},
	{"mulSubS", true, "VSUBPS %s, Y0, Y0"},
	{"subMulV", false, "VSUBPS Y0, %s, Y0"},
	{"subMulS", true, "VSUBPS Y0, %s, Y0"},
}

// loop emits a kernel's loop, eight lanes per iteration as two groups of
// four whose instructions alternate: each group loads its lanes into Y0
// (and b's into Y10), special sets Y15 to its special lanes, and body leaves
// the result in Y5 (virtual registers, see allocate). The loop stops before
// an iteration with a special lane or with fewer than eight lanes left.
func (g *gen) loop(special, body func(g *gen), binary bool) {
	var pre, post [2][]instr
	var mask [2]string
	for k := range 2 {
		off := ""
		if k == 1 {
			off = "16"
		}
		var lines []string
		g.rec = &lines
		g.i("VCVTPS2PD %s(SI)(AX*4), Y0", off)
		if binary {
			g.i("VCVTPS2PD %s(R8)(AX*4), Y10", off)
		}
		if special != nil {
			special(g)
			g.i("USE Y15")
		}
		npre := len(lines)
		body(g)
		g.i("VCVTPD2PSY Y5, X5")
		g.i("VMOVUPS X5, %s(DI)(AX*4)", off)
		g.rec = nil
		pool := []int{0, 1, 2, 3, 4, 5, 6, 7}
		if k == 1 {
			pool = []int{8, 9, 10, 11, 12, 13, 14, 15}
		}
		ins := allocate(lines, pool)
		pre[k], post[k] = ins[:npre], ins[npre:]
		if special != nil {
			mask[k] = pre[k][npre-1].args[0]
			pre[k] = pre[k][:npre-1]
		}
	}
	g.i("XORQ AX, AX")
	fmt.Fprintf(&g.text, "loop:\n")
	g.i("LEAQ 8(AX), DX")
	g.i("CMPQ DX, CX")
	g.i("JGT done")
	g.interleave(pre)
	if special != nil {
		g.i("VORPD %s, %s, %s", mask[1], mask[0], mask[0])
		g.i("VMOVMSKPD %s, BX", mask[0])
		g.i("TESTL BX, BX")
		g.i("JNZ done")
	}
	g.interleave(post)
	g.i("ADDQ $8, AX")
	g.i("JMP loop")
	fmt.Fprintf(&g.text, "done:\n")
	g.i("VZEROUPPER")
}

// interleave emits two instruction lists alternately.
func (g *gen) interleave(l [2][]instr) {
	for j := 0; j < max(len(l[0]), len(l[1])); j++ {
		for k := range 2 {
			if j < len(l[k]) {
				g.i("%s", l[k][j])
			}
		}
	}
}

// header emits a kernel's Go declaration (as a comment), its TEXT line
// with the argument size, and the loads of its arguments.
func (g *gen) header(name, sig string, argSize int, loads ...string) {
	fmt.Fprintf(&g.text, "\n// func %sAVX2%s\n", name, sig)
	fmt.Fprintf(&g.text, "TEXT ·%sAVX2(SB), NOSPLIT, $0-%d\n", name, argSize)
	for _, l := range loads {
		g.i("%s", l)
	}
}

// mulAddKernel emits a multiply-add kernel's loop.
func (g *gen) mulAddKernel(m mulAdd) {
	if m.scalar {
		g.i("VBROADCASTSS (R9), Y3")
	}
	g.i("XORQ AX, AX")
	fmt.Fprintf(&g.text, "loop:\n")
	g.i("CMPQ AX, CX")
	g.i("JGE done")
	g.i("VMOVUPS (SI)(AX*4), Y0")
	g.i("VMULPS (R8)(AX*4), Y0, Y0")
	c := "Y3"
	if !m.scalar {
		c = "Y1"
		g.i("VMOVUPS (R9)(AX*4), Y1")
	}
	g.i(m.op, c)
	g.i("VMOVUPS Y0, (DI)(AX*4)")
	g.i("ADDQ $8, AX")
	g.i("JMP loop")
	fmt.Fprintf(&g.text, "done:\n")
	g.i("VZEROUPPER")
	g.i("RET")
}

func generate() []byte {
	g := &gen{consts: map[string]uint64{}}
	for _, u := range unaries {
		g.header(u.name, "(d, a []float32) int", 56, "MOVQ d_base+0(FP), DI", "MOVQ a_base+24(FP), SI", "MOVQ a_len+32(FP), CX")
		g.loop(u.special, u.body, false)
		g.i("MOVQ AX, ret+48(FP)")
		g.i("RET")
	}
	// sqrt is correctly rounded in float32 directly (and float64's
	// rounded sqrt rounds to the same float32), eight lanes per vsqrtps.
	g.header("sqrt", "(d, a []float32) int", 56, "MOVQ d_base+0(FP), DI", "MOVQ a_base+24(FP), SI", "MOVQ a_len+32(FP), CX")
	g.i("XORQ AX, AX")
	fmt.Fprintf(&g.text, "loop:\n")
	g.i("LEAQ 8(AX), DX")
	g.i("CMPQ DX, CX")
	g.i("JGT done")
	g.i("VSQRTPS (SI)(AX*4), Y0")
	g.i("VMOVUPS Y0, (DI)(AX*4)")
	g.i("ADDQ $8, AX")
	g.i("JMP loop")
	fmt.Fprintf(&g.text, "done:\n")
	g.i("VZEROUPPER")
	g.i("MOVQ AX, ret+48(FP)")
	g.i("RET")
	g.header("pow", "(d, a, b []float32) int", 80,
		"MOVQ d_base+0(FP), DI", "MOVQ a_base+24(FP), SI", "MOVQ a_len+32(FP), CX", "MOVQ b_base+48(FP), R8")
	g.loop(func(g *gen) {
		g.outsideOpen("Y0", "Y15", 0)
		g.absTo("Y10", "Y1")
		g.notBelow("Y13", "Y1", math.Inf(1))
		g.i("VORPD Y13, Y15, Y15")
	}, func(g *gen) {
		g.i("VMOVAPD Y0, Y1")
		g.logPos()
		g.i("VMULPD Y10, Y5, Y1")
		g.clampTo("Y1", "Y1", p.ExpClamp)
		g.expParts()
		g.i("VFMADD213PD Y3, Y3, Y5")
	}, true)
	g.i("MOVQ AX, ret+72(FP)")
	g.i("RET")
	for _, m := range mulAdds {
		g.header(m.name, "(d, a, b, c []float32)", 96, "MOVQ d_base+0(FP), DI", "MOVQ d_len+8(FP), CX",
			"MOVQ a_base+24(FP), SI", "MOVQ b_base+48(FP), R8", "MOVQ c_base+72(FP), R9")
		g.mulAddKernel(m)
	}

	var out bytes.Buffer
	out.WriteString("// Code generated by jit/cpu/internal/asmgen; DO NOT EDIT.\n\n//go:build !purego\n\n#include \"textflag.h\"\n")
	names := make([]string, 0, len(g.consts))
	for n := range g.consts {
		names = append(names, n)
	}
	sort.Strings(names)
	out.WriteString("\n// Four-lane constants, named by their bits.\n")
	for _, n := range names {
		for l := 0; l < 4; l++ {
			fmt.Fprintf(&out, "DATA %s<>+%d(SB)/8, $0x%016x\n", n, 8*l, g.consts[n])
		}
		fmt.Fprintf(&out, "GLOBL %s<>(SB), RODATA|NOPTR, $32\n", n)
	}
	out.Write(g.text.Bytes())
	return out.Bytes()
}
