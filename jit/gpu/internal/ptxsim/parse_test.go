package ptxsim

import (
	"strings"
	"testing"
)

const header = ".version 8.0\n.target sm_90\n.address_size 64\n"

// kernelText wraps body in a one-parameter kernel with a few registers.
func kernelText(body string) string {
	return header + ".visible .entry k0(\n\t.param .u64 k0_p0\n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n" + body + "\tret;\n}\n"
}

func TestParseRejectsMalformed(t *testing.T) {
	cases := map[string]struct{ src, want string }{
		"undeclared register":   {kernelText("\tmov.f32 %f1, 0f00000000;\n"), "%f<N> is not declared"},
		"register out of range": {kernelText("\tmov.u32 %r4, 0;\n"), "out of the declared range %r<4>"},
		"undefined label":       {kernelText("\tbra $L_nowhere;\n"), "undefined label $L_nowhere"},
		"unknown instruction":   {kernelText("\tfrobnicate.u32 %r1, %r2;\n"), "unsupported instruction frobnicate.u32"},
		"missing semicolon":     {kernelText("\tmov.u32 %r1, 0\n"), "without ';'"},
		"unbalanced braces":     {strings.TrimSuffix(kernelText(""), "}\n"), "unbalanced braces"},
		"bad parameter":         {kernelText("\tld.param.u64 %rd1, [k0_p9];\n"), "unknown parameter k0_p9"},
		"negated operand":       {kernelText("\tand.pred %p1, %p0, !%p1;\n"), "bad operand"},
		"decimal float":         {kernelText("\tadd.rn.f32 %r1, %r1, 1;\n"), "decimal immediate"},
		"no target":             {".version 8.0\n", "missing .version or .target"},
		"wrong register type":   {header + ".visible .entry k0(\n)\n{\n\t.reg .f32 %r<2>;\n\tret;\n}\n", "declared .f32, want .b32"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(c.src)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestLaunchBarrierAndShared: a block reverses 8 values through shared
// memory, which needs every thread's store before any load (bar.sync).
func TestLaunchBarrierAndShared(t *testing.T) {
	src := header + `.visible .entry rev(
	.param .u64 rev_p0
)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;
	.shared .align 8 .b8 rev_smem[32];
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [rev_p0];
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.s32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.s32 %r2, [%rd4];
	mov.u32 %r3, rev_smem;
	mad.lo.s32 %r4, %r1, 4, %r3;
	st.shared.s32 [%r4], %r2;
	bar.sync 0;
	sub.s32 %r5, 7, %r1;
	mad.lo.s32 %r6, %r5, 4, %r3;
	ld.shared.s32 %r7, [%r6];
	st.global.s32 [%rd4], %r7;
	ret;
}
`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	buf := mem.Alloc(32)
	b, _ := mem.Bytes(buf, 32)
	for i := range 8 {
		b[4*i] = byte(i)
	}
	if err := m.Launch(mem, "rev", 1, 8, []uint64{buf}); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if b[4*i] != byte(7-i) {
			t.Fatalf("element %d = %d, want %d (all %v)", i, b[4*i], 7-i, b)
		}
	}
	if err := m.Launch(mem, "rev", 2, 8, []uint64{buf + 16}); err == nil || !strings.Contains(err.Error(), "outside every allocation") {
		t.Errorf("out-of-bounds launch: error %v", err)
	}
}
