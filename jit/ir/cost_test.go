package ir

import "testing"

func checkCost(t *testing.T, name string, got, want Cost) {
	t.Helper()
	if got != want {
		t.Errorf("%s: CostOf = %+v, want %+v", name, got, want)
	}
}

func TestCostElementwiseAndReduction(t *testing.T) {
	// R1: sin (transcendental), mul, add, reduce_sum over f32[8].
	a, b, c, d, e, f := f32(8), f32(8), f32(8), f32(8), f32(8), f32()
	j := &Jaxpr{Invars: outs(a, b), Outvars: in(f), Eqns: []*Eqn{
		eq(outs(c), Sin, nil, b),
		eq(outs(d), Mul, nil, c, lit(Float32, 3)),
		eq(outs(e), Add, nil, a, d),
		eq(outs(f), ReduceSum, Params{"axes": []int{0}}, e),
	}}
	checkCost(t, "R1", CostOf(j), Cost{Flops: 24, Transcendentals: 8, BytesAccessed: 2*8*4 + 4})
}

func TestCostDotGeneral(t *testing.T) {
	a, b, c := f32(3, 4), f32(4), f32(3)
	mv := &Jaxpr{Invars: outs(a, b), Outvars: in(c), Eqns: []*Eqn{
		eq(outs(c), DotGeneral, Params{"dimension_numbers": DotDims{LhsContract: []int{1}, RhsContract: []int{0}}}, a, b),
	}}
	checkCost(t, "matvec", CostOf(mv), Cost{Flops: 2 * 3 * 4, BytesAccessed: (12 + 4 + 3) * 4})

	x, y, z := f32(2, 3, 4), f32(2, 4, 5), f32(2, 3, 5)
	bmm := &Jaxpr{Invars: outs(x, y), Outvars: in(z), Eqns: []*Eqn{
		eq(outs(z), DotGeneral, Params{"dimension_numbers": DotDims{
			LhsContract: []int{2}, RhsContract: []int{1}, LhsBatch: []int{0}, RhsBatch: []int{0}}}, x, y),
	}}
	checkCost(t, "batched matmul", CostOf(bmm), Cost{Flops: 2 * 2 * 3 * 5 * 4, BytesAccessed: (24 + 40 + 30) * 4})
}

func TestCostControlFlow(t *testing.T) {
	// Branch 0: one sin and one add; branch 1: three muls.
	p, q, r := f32(), f32(), f32()
	br0 := closed(&Jaxpr{Invars: outs(p), Outvars: in(r), Eqns: []*Eqn{
		eq(outs(q), Sin, nil, p), eq(outs(r), Add, nil, q, p),
	}})
	u, v, w, x := f32(), f32(), f32(), f32()
	br1 := closed(&Jaxpr{Invars: outs(u), Outvars: in(x), Eqns: []*Eqn{
		eq(outs(v), Mul, nil, u, u), eq(outs(w), Mul, nil, v, u), eq(outs(x), Mul, nil, w, u),
	}})
	idx, a, out := i32(), f32(), f32()
	cond := &Jaxpr{Invars: outs(idx, a), Outvars: in(out), Eqns: []*Eqn{
		eq(outs(out), Cond, Params{"branches": []*ClosedJaxpr{br0, br1}}, idx, a),
	}}
	checkCost(t, "cond", CostOf(cond), Cost{Flops: 3, Transcendentals: 1, BytesAccessed: 12})

	s0, s1 := f32(), f32()
	scan := &Jaxpr{Invars: outs(s0), Outvars: in(s1), Eqns: []*Eqn{
		eq(outs(s1), Scan, Params{"jaxpr": br0, "length": 16, "num_consts": 0, "num_carry": 1}, s0),
	}}
	checkCost(t, "scan", CostOf(scan), Cost{Flops: 16, Transcendentals: 16, BytesAccessed: 8})

	ci, cb := i32(), boolv()
	cj := closed(&Jaxpr{Invars: outs(ci), Outvars: in(cb), Eqns: []*Eqn{eq(outs(cb), Lt, nil, ci, lit(Int32, 10))}})
	bi, bo := i32(), i32()
	bj := closed(&Jaxpr{Invars: outs(bi), Outvars: in(bo), Eqns: []*Eqn{eq(outs(bo), Add, nil, bi, lit(Int32, 1))}})
	w0, w1 := i32(), i32()
	while := &Jaxpr{Invars: outs(w0), Outvars: in(w1), Eqns: []*Eqn{
		eq(outs(w1), While, Params{"cond_jaxpr": cj, "body_jaxpr": bj, "cond_nconsts": 0, "body_nconsts": 0}, w0),
	}}
	checkCost(t, "while", CostOf(while), Cost{Flops: 2, BytesAccessed: 8})

	j0, j1 := f32(), f32()
	jit := &Jaxpr{Invars: outs(j0), Outvars: in(j1), Eqns: []*Eqn{
		eq(outs(j1), Jit, Params{"name": "f", "jaxpr": br1}, j0),
	}}
	checkCost(t, "jit", CostOf(jit), Cost{Flops: 3, BytesAccessed: 8})
}

func TestCostDataMovementAndBytes(t *testing.T) {
	k, a, b, c := f32(4), NewVar(Aval{Shape: []int{4}, DType: Float64}), f32(4), f32(2, 2)
	j := &Jaxpr{Constvars: outs(k), Invars: outs(a), Outvars: in(c, lit(Int32, 1)), Eqns: []*Eqn{
		eq(outs(b), ConvertElementType, cet(Float32), a),
		eq(outs(c), Reshape, Params{"new_sizes": []int{2, 2}}, b),
	}}
	checkCost(t, "convert+reshape", CostOf(j), Cost{Flops: 4, BytesAccessed: 16 + 32 + 16 + 4})
}
