package codelab

import "github.com/jitlint/jitlint/jit/ir"

// WhileCount is fori_loop with traced bounds: (i, y) -> (i+1, 1.5*y+1)
// while i < limit.
func WhileCount(n int) *ir.ClosedJaxpr {
	i32 := ir.Aval{DType: ir.Int32}
	cond := ir.NewBuilder()
	lim := cond.In(ir.Int32)
	i := cond.In(ir.Int32)
	cond.In(ir.Float32, n)
	cj := cond.Done("cond", cond.Compare(ir.Lt, i, lim))
	body := ir.NewBuilder()
	bi := body.In(ir.Int32)
	by := body.In(ir.Float32, n)
	bj := body.Done("body", body.Same(ir.Add, bi, I32(1)), body.Same(ir.Add, body.Same(ir.Mul, by, F32(1.5)), F32(1)))
	b := ir.NewBuilder()
	limit := b.In(ir.Int32)
	x := b.In(ir.Float32, n)
	outs := b.Multi(ir.While, ir.Params{"cond_jaxpr": cj, "body_jaxpr": bj, "cond_nconsts": 1, "body_nconsts": 0},
		[]ir.Aval{i32, f32(n)}, limit, I32(0), x)
	return b.Done("while_loop", outs[0], outs[1])
}

// ScanCumsum is a scan with xs and stacked ys: running sums of rows of
// x[steps, n], reversed when reverse is set.
func ScanCumsum(steps, n int, reverse bool) *ir.ClosedJaxpr {
	body := ir.NewBuilder()
	c := body.In(ir.Float32, n)
	row := body.In(ir.Float32, n)
	s := body.Same(ir.Add, c, row)
	bj := body.Done("body", s, body.Same(ir.Mul, s, F32(2)))
	b := ir.NewBuilder()
	x := b.In(ir.Float32, steps, n)
	init := b.Op(ir.BroadcastInDim, ir.Params{"shape": []int{n}, "broadcast_dimensions": []int{}, "sharding": nil}, f32(n), F32(0))
	outs := b.Multi(ir.Scan, ir.Params{"jaxpr": bj, "length": steps, "num_consts": 0, "num_carry": 1, "reverse": reverse, "unroll": 1},
		[]ir.Aval{f32(n), f32(steps, n)}, init, x)
	return b.Done("cumsum", outs[0], outs[1])
}

// Matmul is x @ w for x[m,k], w[k,n]; with transposed set, x is given as
// [k,m] and contracted on its dimension 0.
func Matmul(m, k, n int, transposed bool) *ir.ClosedJaxpr {
	b := ir.NewBuilder()
	var x *ir.Var
	lc := []int{1}
	if transposed {
		x, lc = b.In(ir.Float32, k, m), []int{0}
	} else {
		x = b.In(ir.Float32, m, k)
	}
	w := b.In(ir.Float32, k, n)
	y := b.Op(ir.DotGeneral, ir.Params{"dimension_numbers": ir.DotDims{LhsContract: lc, RhsContract: []int{0}},
		"precision": nil, "preferred_element_type": ir.Float32, "out_sharding": nil}, f32(m, n), x, w)
	return b.Done("matmul", y)
}

// Shapes exercises the index kernels: x[2,3] -> transpose, broadcast to
// [4,3,2], concatenate with itself along 0, pad, slice, and a row max.
func Shapes() *ir.ClosedJaxpr {
	b := ir.NewBuilder()
	x := b.In(ir.Float32, 2, 3)
	t := b.Op(ir.Transpose, ir.Params{"permutation": []int{1, 0}}, f32(3, 2), x)
	bc := b.Op(ir.BroadcastInDim, ir.Params{"shape": []int{4, 3, 2}, "broadcast_dimensions": []int{1, 2}, "sharding": nil}, f32(4, 3, 2), t)
	io := b.Op(ir.Iota, ir.Params{"dtype": ir.Float32, "shape": []int{4, 3, 2}, "dimension": 0, "sharding": nil}, f32(4, 3, 2))
	s := b.Same(ir.Add, bc, io)
	cat := b.Op(ir.Concatenate, ir.Params{"dimension": 0}, f32(8, 3, 2), s, bc)
	p := b.Op(ir.Pad, ir.Params{"padding_config": [][3]int{{1, 0, 0}, {0, 2, 1}, {0, 0, 0}}}, f32(9, 7, 2), cat, F32(-1))
	sl := b.Op(ir.Slice, ir.Params{"start_indices": []int{1, 0, 0}, "limit_indices": []int{9, 7, 2}, "strides": []int{2, 3, 1}}, f32(4, 3, 2), p)
	r := b.Op(ir.Reshape, ir.Params{"new_sizes": []int{4, 6}, "dimensions": nil, "sharding": nil}, f32(4, 6), sl)
	mx := b.Op(ir.ReduceMax, ir.Params{"axes": []int{1}, "out_sharding": nil}, f32(4), r)
	return b.Done("shapes", p, mx)
}
