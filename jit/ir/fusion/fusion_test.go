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

func TestContractionTakesEpilogueAndBias(t *testing.T) {
	var b ir.Builder
	x, w, bias := b.Input(f32(8, 5)), b.Input(f32(5, 6)), b.Input(f32(6))
	out := f32(8, 6)
	dims := ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}, LhsBatch: []int{}, RhsBatch: []int{}}
	p := b.Op(ir.DotGeneral, ir.Params{"dimension_numbers": dims}, out, x, w)
	// jit's Add broadcasts a bias in two steps: [6] → [1, 6] → [8, 6].
	b1 := b.Op(ir.BroadcastInDim, ir.Params{"shape": []int{1, 6}, "broadcast_dimensions": []int{1}}, f32(1, 6), bias)
	b2 := b.Op(ir.BroadcastInDim, ir.Params{"shape": []int{8, 6}, "broadcast_dimensions": []int{0, 1}}, out, b1)
	s := b.Op(ir.Add, nil, out, p, b2)
	y := b.Op(ir.Tanh, nil, out, s)
	other := b.Op(ir.Exp, nil, f32(8, 5), x) // independent of the product
	j := b.Jaxpr(y, other)
	groups := Plan(j)
	checkValid(t, j, groups)
	var c *Group
	for _, g := range groups {
		if g.Kind == Contraction {
			c = g
		}
	}
	if c == nil || len(c.Eqns) != 4 || c.Eqns[0].Prim != ir.DotGeneral || c.Eqns[1] != j.Eqns[2] {
		t.Fatalf("want a contraction of the product, the second broadcast, the add and tanh; got %+v", groups)
	}
	if !slices.Equal(c.Shape, []int{8, 6}) || !slices.Equal(c.Outputs, []*ir.Var{y}) {
		t.Fatalf("shape %v outputs %v", c.Shape, c.Outputs)
	}
	parts := c.Split()
	if len(parts) != 3 || parts[0].Eqns[0].Prim != ir.BroadcastInDim || parts[1].Eqns[0].Prim != ir.DotGeneral || parts[2].Kind != Elementwise {
		t.Fatalf("Split: %+v", parts)
	}
	if !slices.Equal(parts[1].Outputs, []*ir.Var{p}) || !slices.Contains(parts[2].Inputs, p) || !slices.Contains(parts[2].Inputs, b2) {
		t.Fatalf("Split's inputs and outputs: %+v", parts)
	}
	if epi := c.Epilogue(); len(epi.Eqns) != 3 || !slices.Contains(epi.Inputs, p) || !slices.Contains(epi.Inputs, b1) {
		t.Fatalf("Epilogue: %+v", epi)
	}
}

func TestProductSinksToItsFirstUse(t *testing.T) {
	var b ir.Builder
	x, w := b.Input(f32(4, 4)), b.Input(f32(4, 4))
	dims := ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}, LhsBatch: []int{}, RhsBatch: []int{}}
	p := b.Op(ir.DotGeneral, ir.Params{"dimension_numbers": dims}, f32(4, 4), x, w)
	e := b.Op(ir.Exp, nil, f32(4, 4), x)
	q := b.Op(ir.DotGeneral, ir.Params{"dimension_numbers": dims}, f32(4, 4), p, w)
	j := b.Jaxpr(b.Op(ir.Add, nil, f32(4, 4), q, e))
	got := sinkProducts(j.Eqns)
	want := []*ir.Eqn{j.Eqns[1], j.Eqns[0], j.Eqns[2], j.Eqns[3]}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want exp, the first product, the second, add", got)
	}
	checkValid(t, j, Plan(j))
}
