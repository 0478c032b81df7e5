package cpu

import (
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/backend"
	"github.com/jitlint/jitlint/jit/ir"
)

func TestRegistered(t *testing.T) {
	b, err := backend.Get("cpu")
	if err != nil || b.Name() != "cpu" || len(b.Devices()) != 1 {
		t.Fatalf("backend.Get(cpu) = %v, %v", b, err)
	}
}

func TestHeavyMatchesEval(t *testing.T) {
	for _, n := range []int{1, 5, 3000, 60_000} {
		checkAgainstEval(t, heavyJaxpr(n), []*ir.Buffer{arange(ir.Float32, n, 1, 0)}, 0)
	}
	// Large arguments, up to arange(1_000_000)'s last values.
	checkAgainstEval(t, heavyJaxpr(1000), []*ir.Buffer{arange(ir.Float32, 1000, 1, 999_000)}, 0)
}

func TestHeavyIsOneKernel(t *testing.T) {
	_, l := compileCJ(t, heavyJaxpr(1_000_000))
	txt := l.Text()
	if !strings.Contains(txt, "group 0 elementwise kernel over [1000000]") || strings.Contains(txt, "group 1") {
		t.Fatalf("listing:\n%s", txt)
	}
	if len(l.prog.steps) != 1 {
		t.Fatalf("%d steps, want 1 fused kernel", len(l.prog.steps))
	}
	k, ok := l.prog.steps[0].(*kernel)
	if !ok || k.eqns != 100 {
		t.Fatalf("step is %T, want a kernel of 100 equations", l.prog.steps[0])
	}
	if k.nreg[cF32] > 6 {
		t.Errorf("heavy uses %d f32 registers; liveness should keep it to a few", k.nreg[cF32])
	}
}

func TestListingNamesEachKind(t *testing.T) {
	_, l := compileCJ(t, scanJaxpr(1000, 3, false, true))
	txt := l.Text()
	for _, want := range []string{"group 0 control flow", "program scan body 0", "reduction kernel over [1000]",
		"k:f32[1000] = mul g 2:f32[]", "debug_print[fmt=carry sum %v ordered=false] l", "(evaluated equation by equation)"} {
		if !strings.Contains(txt, want) {
			t.Errorf("listing lacks %q:\n%s", want, txt)
		}
	}
	var b ir.Builder
	x := b.Input(av(ir.Float32, 8, 3))
	e := b.Op(ir.Exp, nil, av(ir.Float32, 8, 3), x)
	b.Op(ir.ReduceSum, ir.Params{"axes": []int{0}}, av(ir.Float32, 3), e)
	cj := b.Done("", b.Eqns()[1].Out[0])
	_, l = compileCJ(t, cj)
	if !strings.Contains(l.Text(), "the reduction itself is evaluated") {
		t.Errorf("leading-axis reduction listing:\n%s", l.Text())
	}
	checkAgainstEval(t, cj, []*ir.Buffer{testInput(ir.Float32, 0, 1, 8, 3)}, 0)
}

func TestKernelsBuiltOncePerLowered(t *testing.T) {
	low, err := Backend{}.Lower(heavyJaxpr(10))
	if err != nil {
		t.Fatal(err)
	}
	l := low.(*Lowered)
	if l.prog != nil {
		t.Fatal("Lower built the kernels; Compile should")
	}
	if !strings.Contains(l.Text(), "elementwise kernel") {
		t.Fatalf("listing before Compile:\n%s", l.Text())
	}
	e1, err1 := l.Compile()
	e2, err2 := l.Compile()
	if err1 != nil || err2 != nil || e1.(*Executable).prog != e2.(*Executable).prog {
		t.Fatal("Compile rebuilt the kernels")
	}
}
