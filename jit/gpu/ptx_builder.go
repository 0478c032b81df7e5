package gpu

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
)

// Register classes: PTX register name prefix and declared type.
var regClasses = []struct{ prefix, typ string }{
	{"%p", ".pred"}, {"%r", ".b32"}, {"%rd", ".b64"}, {"%f", ".f32"}, {"%fd", ".f64"},
}

// kernel builds the PTX text of one kernel: its parameters (all .u64
// pointers), its registers (declared on output) and its body.
type kernel struct {
	name    string
	nparams int
	shared  int // bytes of .shared memory, 0 for none
	counts  map[string]int
	labels  int
	body    strings.Builder
	// sincos memoises sin/cos results by input register (values are SSA).
	sincos map[string][2]string
}

func newKernel(name string, nparams int) *kernel {
	return &kernel{name: name, nparams: nparams, counts: map[string]int{}}
}

// reg returns a fresh register of class prefix ("%f", "%rd", ...).
func (k *kernel) reg(prefix string) string {
	k.counts[prefix]++
	return fmt.Sprintf("%s%d", prefix, k.counts[prefix])
}

// label returns a fresh label name.
func (k *kernel) label() string {
	k.labels++
	return fmt.Sprintf("$L_%s_%d", k.name, k.labels)
}

// op emits one instruction (without the trailing semicolon).
func (k *kernel) op(format string, args ...any) {
	k.body.WriteString("\t")
	fmt.Fprintf(&k.body, format, args...)
	k.body.WriteString(";\n")
}

// mark places a label.
func (k *kernel) mark(label string) { k.body.WriteString(label + ":\n") }

// param loads parameter i as a global address.
func (k *kernel) param(i int) string {
	a, g := k.reg("%rd"), k.reg("%rd")
	k.op("ld.param.u64 %s, [%s_p%d]", a, k.name, i)
	k.op("cvta.to.global.u64 %s, %s", g, a)
	return g
}

// threadIndex returns ctaid.x*ntid.x+tid.x in a 32-bit register.
func (k *kernel) threadIndex() string {
	c, n, t, i := k.reg("%r"), k.reg("%r"), k.reg("%r"), k.reg("%r")
	k.op("mov.u32 %s, %%ctaid.x", c)
	k.op("mov.u32 %s, %%ntid.x", n)
	k.op("mov.u32 %s, %%tid.x", t)
	k.op("mad.lo.s32 %s, %s, %s, %s", i, c, n, t)
	return i
}

// exitUnless branches to the returned label when idx >= n; the caller
// places the label (via mark) before ret.
func (k *kernel) exitUnless(idx string, n int) string {
	p, done := k.reg("%p"), k.label()
	k.op("setp.ge.s32 %s, %s, %d", p, idx, n)
	k.op("@%s bra %s", p, done)
	return done
}

// addr returns base + idx*size as a 64-bit address.
func (k *kernel) addr(base, idx string, size int) string {
	off, a := k.reg("%rd"), k.reg("%rd")
	k.op("mul.wide.s32 %s, %s, %d", off, idx, size)
	k.op("add.s64 %s, %s, %s", a, base, off)
	return a
}

// text returns the kernel's PTX.
func (k *kernel) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, ".visible .entry %s(", k.name)
	for i := 0; i < k.nparams; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n\t.param .u64 %s_p%d", k.name, i)
	}
	b.WriteString("\n)\n{\n")
	for _, c := range regClasses {
		if n := k.counts[c.prefix]; n > 0 {
			fmt.Fprintf(&b, "\t.reg %s %s<%d>;\n", c.typ, c.prefix, n+1)
		}
	}
	if k.shared > 0 {
		fmt.Fprintf(&b, "\t.shared .align 8 .b8 %s_smem[%d];\n", k.name, k.shared)
	}
	b.WriteString(k.body.String())
	b.WriteString("\tret;\n}\n")
	return b.String()
}

var entryRE = regexp.MustCompile(`(?m)^\.visible \.entry (\w+)\(`)

// kernelNames lists the .entry names of a PTX module.
func kernelNames(ptx string) []string {
	var names []string
	for _, m := range entryRE.FindAllStringSubmatch(ptx, -1) {
		names = append(names, m[1])
	}
	return names
}

// value is a value in registers: reg is the register and t its dtype
// (bools live in predicate registers).
type value struct {
	reg string
	t   ir.DType
}

// regClass is the register class holding values of dtype t.
func regClass(t ir.DType) string {
	switch t {
	case ir.Float32:
		return "%f"
	case ir.Float64:
		return "%fd"
	case ir.Int32:
		return "%r"
	case ir.Int64:
		return "%rd"
	case ir.Bool:
		return "%p"
	}
	panic(fmt.Sprintf("gpu: no register class for %v", t))
}

// ptxType is the instruction type for arithmetic on dtype t.
func ptxType(t ir.DType) string {
	switch t {
	case ir.Float32:
		return ".f32"
	case ir.Float64:
		return ".f64"
	case ir.Int32:
		return ".s32"
	case ir.Int64:
		return ".s64"
	case ir.Bool:
		return ".pred"
	}
	panic(fmt.Sprintf("gpu: no PTX type for %v", t))
}

// memType is the type used to load and store dtype t.
func memType(t ir.DType) string {
	if t == ir.Bool {
		return ".u8"
	}
	return ptxType(t)
}

// immediate spells v as a PTX constant of dtype t (hex for floats, so the
// value is exact).
func immediate(t ir.DType, v float64) string {
	switch t {
	case ir.Float32:
		return fmt.Sprintf("0f%08X", math.Float32bits(float32(v)))
	case ir.Float64:
		return fmt.Sprintf("0d%016X", math.Float64bits(v))
	}
	if v >= math.MaxInt64 { // float64(MaxInt64) rounds up to 2^63
		return fmt.Sprintf("%d", int64(math.MaxInt64))
	}
	return fmt.Sprintf("%d", int64(v))
}

// constant materialises a constant of dtype t in a fresh register.
func (k *kernel) constant(t ir.DType, v float64) value {
	r := k.reg(regClass(t))
	if t == ir.Bool {
		b := k.reg("%r")
		k.op("mov.u32 %s, %d", b, boolInt(v != 0))
		k.op("setp.ne.u32 %s, %s, 0", r, b)
	} else {
		k.op("mov%s %s, %s", movType(t), r, immediate(t, v))
	}
	return value{r, t}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// movType is the mov instruction type for dtype t.
func movType(t ir.DType) string {
	switch t {
	case ir.Int32:
		return ".u32"
	case ir.Int64:
		return ".u64"
	}
	return ptxType(t)
}

// notPred returns the negation of predicate p in a fresh register (PTX
// allows ! only in guards, not in and.pred operands).
func (k *kernel) notPred(p string) string {
	r := k.reg("%p")
	k.op("not.pred %s, %s", r, p)
	return r
}

// load reads element idx (32-bit register) of a buffer of dtype t at base.
func (k *kernel) load(base, idx string, t ir.DType) value {
	a := k.addr(base, idx, t.ItemSize())
	if t == ir.Bool {
		b, p := k.reg("%r"), k.reg("%p")
		k.op("ld.global.u8 %s, [%s]", b, a)
		k.op("setp.ne.u32 %s, %s, 0", p, b)
		return value{p, t}
	}
	r := k.reg(regClass(t))
	k.op("ld.global%s %s, [%s]", memType(t), r, a)
	return value{r, t}
}

// store writes v at element idx of a buffer at base.
func (k *kernel) store(base, idx string, v value) {
	a := k.addr(base, idx, v.t.ItemSize())
	if v.t == ir.Bool {
		b := k.reg("%r")
		k.op("selp.u32 %s, 1, 0, %s", b, v.reg)
		k.op("st.global.u8 [%s], %s", a, b)
		return
	}
	k.op("st.global%s [%s], %s", memType(v.t), a, v.reg)
}
