package fusion

import (
	"slices"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

func f32(shape ...int) ir.Aval { return ir.Aval{Shape: shape, DType: ir.Float32} }

// checkValid asserts every equation appears once and inputs come from
// earlier groups.
func checkValid(t *testing.T, j *ir.Jaxpr, groups []*Group) {
	t.Helper()
	defined := map[*ir.Var]bool{}
	for _, v := range j.Invars {
		defined[v] = true
	}
	n := 0
	for gi, g := range groups {
		for _, v := range g.Inputs {
			if !defined[v] {
				t.Fatalf("group %d reads a value not defined by an earlier group", gi)
			}
		}
		for _, e := range g.Eqns {
			n++
			for _, v := range e.Out {
				defined[v] = true
			}
		}
	}
	if n != len(j.Eqns) {
		t.Fatalf("groups hold %d equations, jaxpr has %d", n, len(j.Eqns))
	}
}

func TestHeavyChainIsOneGroup(t *testing.T) {
	var b ir.Builder
	a := f32(1000)
	y := b.Input(a)
	for i := 0; i < 20; i++ {
		s := b.Op(ir.Sin, nil, a, y)
		c := b.Op(ir.Cos, nil, a, y)
		m := b.Op(ir.Mul, nil, a, s, c)
		th := b.Op(ir.Tanh, nil, a, y)
		y = b.Op(ir.Add, nil, a, m, th)
	}
	j := b.Jaxpr(y)
	groups := Plan(j)
	if len(groups) != 1 || groups[0].Kind != Elementwise || len(groups[0].Eqns) != 100 {
		t.Fatalf("got %d groups, want one elementwise group of 100 eqns", len(groups))
	}
	g := groups[0]
	if len(g.Inputs) != 1 || g.Inputs[0] != j.Invars[0] || len(g.Outputs) != 1 || g.Outputs[0] != y {
		t.Fatalf("inputs %v outputs %v", g.Inputs, g.Outputs)
	}
	if !slices.Equal(g.Shape, []int{1000}) {
		t.Fatalf("shape %v", g.Shape)
	}
}

func TestScalarBroadcastAndLiteralsFuse(t *testing.T) {
	var b ir.Builder
	a := f32(4, 5)
	x := b.Input(a)
	s := b.Input(f32())
	bs := b.Op(ir.BroadcastInDim, ir.Params{"shape": []int{4, 5}, "broadcast_dimensions": []int{}}, a, s)
	m := b.Op(ir.Mul, nil, a, x, bs)
	one := ir.Literal{Value: 1, Aval: f32()}
	r := b.Op(ir.Add, nil, a, m, one)
	io := b.Op(ir.Iota, ir.Params{"dtype": ir.Float32, "shape": []int{4, 5}, "dimension": 1}, a)
	o := b.Op(ir.Sub, nil, a, r, io)
	j := b.Jaxpr(o, m)
	groups := Plan(j)
	checkValid(t, j, groups)
	if len(groups) != 1 {
		t.Fatalf("got %d groups, want 1", len(groups))
	}
	if got := groups[0].Outputs; len(got) != 2 || got[0] != m || got[1] != o {
		t.Fatalf("outputs in definition order: want [m o], got %v", got)
	}
	if got := groups[0].Inputs; len(got) != 2 || got[0] != s || got[1] != x {
		t.Fatalf("inputs in first-use order: want [s x], got %v", got)
	}
}

func TestReductionFusesWithProducers(t *testing.T) {
	var b ir.Builder
	a := f32(8, 3)
	x := b.Input(a)
	e := b.Op(ir.Exp, nil, a, x)
	s := b.Op(ir.ReduceSum, ir.Params{"axes": []int{1}}, f32(8), e)
	l := b.Op(ir.Log, nil, f32(8), s)
	j := b.Jaxpr(l)
	groups := Plan(j)
	checkValid(t, j, groups)
	if len(groups) != 2 || groups[0].Kind != Reduction || len(groups[0].Eqns) != 2 || groups[1].Kind != Elementwise {
		t.Fatalf("want [reduction(exp, reduce_sum), elementwise(log)], got %d groups", len(groups))
	}
	if !slices.Equal(groups[0].Shape, []int{8, 3}) || len(groups[0].Outputs) != 1 || groups[0].Outputs[0] != s {
		t.Fatalf("reduction group shape %v outputs %v", groups[0].Shape, groups[0].Outputs)
	}
}

func TestNonFusibleSplitsAndOrderStaysValid(t *testing.T) {
	var b ir.Builder
	a := f32(6)
	x := b.Input(a)
	y := b.Op(ir.Neg, nil, a, x)
	r := b.Op(ir.Reshape, ir.Params{"new_sizes": []int{2, 3}}, f32(2, 3), y)
	r2 := b.Op(ir.Reshape, ir.Params{"new_sizes": []int{6}}, a, r)
	// z depends on r2 (defined after y's group), so it cannot join y's group.
	z := b.Op(ir.Add, nil, a, r2, y)
	w := b.Op(ir.Abs, nil, a, x) // independent; may join the first group
	j := b.Jaxpr(z, w)
	groups := Plan(j)
	checkValid(t, j, groups)
	kinds := []Kind{}
	for _, g := range groups {
		kinds = append(kinds, g.Kind)
	}
	if len(groups) != 4 || groups[1].Kind != Other || groups[2].Kind != Other {
		t.Fatalf("kinds %v", kinds)
	}
	if len(groups[0].Outputs) != 1 || groups[0].Outputs[0] != y {
		t.Fatalf("first group must output y only, got %v", groups[0].Outputs)
	}
}

func TestNonScalarBroadcastIsOther(t *testing.T) {
	var b ir.Builder
	x := b.Input(f32(3))
	y := b.Op(ir.BroadcastInDim, ir.Params{"shape": []int{2, 3}, "broadcast_dimensions": []int{1}}, f32(2, 3), x)
	j := b.Jaxpr(y)
	groups := Plan(j)
	if len(groups) != 1 || groups[0].Kind != Other || groups[0].Shape != nil {
		t.Fatalf("want one Other group")
	}
	if Fusible(j.Eqns[0]) {
		t.Fatal("non-scalar broadcast reported fusible")
	}
}

func TestReduceOfInputIsOwnGroup(t *testing.T) {
	var b ir.Builder
	x := b.Input(f32(5))
	m := b.Op(ir.ReduceMax, ir.Params{"axes": []int{0}}, f32(), x)
	n := b.Op(ir.Neg, nil, f32(), m)
	j := b.Jaxpr(n)
	groups := Plan(j)
	checkValid(t, j, groups)
	if len(groups) != 2 || groups[0].Kind != Reduction || len(groups[0].Eqns) != 1 {
		t.Fatalf("want reduction group then elementwise")
	}
	if Kind(7).String() != "kind?" || Reduction.String() != "reduction" {
		t.Fatal("Kind.String")
	}
}
