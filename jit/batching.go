package jit

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// bval is a value under Vmap: an Array whose dimension bd is the batch
// dimension, or an unbatched Array (bd == unbatched).
type bval struct {
	x  Array
	bd int
}

const unbatched = -1

func (v bval) batched() bool { return v.bd != unbatched }

// batcher evaluates a per-example jaxpr on batched values, staging each
// equation's batching rule (JAX's vmap interpreter).
type batcher struct {
	size int // the batch size
}

// run evaluates j with its constvars bound to consts and invars to args.
func (b *batcher) run(j *ir.Jaxpr, consts, args []bval) []bval {
	env := make(map[*ir.Var]bval, len(j.Eqns)+len(j.Invars))
	for i, v := range j.Constvars {
		env[v] = consts[i]
	}
	for i, v := range j.Invars {
		env[v] = args[i]
	}
	read := func(a ir.Atom) bval {
		if l, ok := a.(ir.Literal); ok {
			return bval{literalArray(l), unbatched}
		}
		return env[a.(*ir.Var)]
	}
	for _, e := range j.Eqns {
		in := make([]bval, len(e.In))
		for k, a := range e.In {
			in[k] = read(a)
		}
		for k, o := range b.eqn(e, in) {
			env[e.Out[k]] = o
		}
	}
	outs := make([]bval, len(j.Outvars))
	for k, a := range j.Outvars {
		outs[k] = read(a)
	}
	return outs
}

// eqn applies e's batching rule.
func (b *batcher) eqn(e *ir.Eqn, in []bval) []bval {
	if !slices.ContainsFunc(in, bval.batched) {
		args := make([]Array, len(in))
		for k, v := range in {
			args[k] = v.x
		}
		outs := bind(e.Prim, e.Params, outAvals(e), args...)
		return unbatchedAll(outs)
	}
	out := func() ir.Aval { return e.Out[0].Aval }
	switch {
	case ir.IsUnary(e.Prim) || e.Prim == ir.ConvertElementType:
		x := in[0]
		return b.one(e, withBatch(out(), x.bd, b.size), x.bd, x.x)
	case ir.IsBinary(e.Prim):
		return b.broadcasting(e, in)
	}
	switch e.Prim {
	case ir.SelectN, ir.Clamp:
		return b.selecting(e, in)
	case ir.BroadcastInDim:
		x := b.front(in[0])
		shape := insertDim(e.Params["shape"].([]int), 0, b.size)
		dims := []int{0}
		for _, d := range e.Params["broadcast_dimensions"].([]int) {
			dims = append(dims, d+1)
		}
		return []bval{{broadcastInDim(x, shape, dims), 0}}
	case ir.Reshape:
		x := b.front(in[0])
		shape := insertDim(e.Params["new_sizes"].([]int), 0, b.size)
		return b.oneParams(e, ir.Params{"new_sizes": shape, "dimensions": nil, "sharding": nil}, withBatch(out(), 0, b.size), 0, x)
	case ir.Transpose:
		x := in[0]
		perm := []int{x.bd}
		for _, p := range e.Params["permutation"].([]int) {
			perm = append(perm, bump(p, x.bd))
		}
		return b.oneParams(e, ir.Params{"permutation": perm}, withBatch(out(), 0, b.size), 0, x.x)
	case ir.Squeeze:
		x := b.front(in[0])
		var dims []int
		for _, d := range e.Params["dimensions"].([]int) {
			dims = append(dims, d+1)
		}
		return b.oneParams(e, ir.Params{"dimensions": dims}, withBatch(out(), 0, b.size), 0, x)
	case ir.ReduceSum, ir.ReduceMax, ir.ReduceMin:
		x := in[0]
		var axes []int
		bd := x.bd
		for _, a := range e.Params["axes"].([]int) {
			a = bump(a, x.bd)
			axes = append(axes, a)
			if a < x.bd {
				bd--
			}
		}
		return b.oneParams(e, ir.Params{"axes": axes, "out_sharding": nil}, withBatch(out(), bd, b.size), bd, x.x)
	case ir.Concatenate:
		args := make([]Array, len(in))
		for k, v := range in {
			args[k] = b.full(v)
		}
		return b.oneParams(e, ir.Params{"dimension": e.Params["dimension"].(int) + 1}, withBatch(out(), 0, b.size), 0, args...)
	case ir.Pad:
		x, pv := in[0], in[1]
		if pv.batched() {
			throw(BadArgument, "Vmap: a pad whose padding value depends on the mapped arguments is not supported; pad with a constant and use Where")
		}
		cfg := slices.Insert(slices.Clone(e.Params["padding_config"].([][3]int)), x.bd, [3]int{0, 0, 0})
		return b.oneParams(e, ir.Params{"padding_config": cfg}, withBatch(out(), x.bd, b.size), x.bd, x.x, pv.x)
	case ir.Slice:
		x := in[0]
		start := slices.Insert(slices.Clone(e.Params["start_indices"].([]int)), x.bd, 0)
		limit := slices.Insert(slices.Clone(e.Params["limit_indices"].([]int)), x.bd, b.size)
		var strides any
		if st, ok := e.Params["strides"].([]int); ok {
			strides = slices.Insert(slices.Clone(st), x.bd, 1)
		}
		return b.oneParams(e, ir.Params{"start_indices": start, "limit_indices": limit, "strides": strides}, withBatch(out(), x.bd, b.size), x.bd, x.x)
	case ir.DotGeneral:
		return b.dot(e, in)
	case ir.Cond:
		return b.cond(e, in)
	case ir.Scan:
		return b.scan(e, in)
	case ir.While:
		return b.while(e, in)
	case ir.Jit:
		return b.jit(e, in)
	case ir.CustomJVPCall:
		return b.custom(e, in)
	case ir.DebugPrint:
		args := make([]Array, len(in))
		for k, v := range in {
			args[k] = v.x
		}
		bind(e.Prim, e.Params, nil, args...)
		return nil
	}
	throw(BadArgument, "Vmap: no batching rule for primitive %s", e.Prim)
	return nil
}

// one binds e's primitive with its own parameters and one result of type
// out whose batch dimension is bd.
func (b *batcher) one(e *ir.Eqn, out ir.Aval, bd int, args ...Array) []bval {
	return b.oneParams(e, e.Params, out, bd, args...)
}

func (b *batcher) oneParams(e *ir.Eqn, params ir.Params, out ir.Aval, bd int, args ...Array) []bval {
	return []bval{{bind(e.Prim, params, []ir.Aval{out}, args...)[0], bd}}
}

// front returns a batched value with its batch dimension moved to 0.
func (b *batcher) front(v bval) Array {
	if !v.batched() {
		return v.x
	}
	return moveAxis(v.x, v.bd, 0)
}

// full returns v with the batch dimension at 0, broadcasting an unbatched
// value to the batch size (JAX's bdim_at_front).
func (b *batcher) full(v bval) Array { return b.atFront(v, b.size) }

// atFront moves v's batch dimension to 0, or gives an unbatched v a
// leading dimension of the given size (1, or the batch size).
func (b *batcher) atFront(v bval, size int) Array {
	if v.batched() {
		return moveAxis(v.x, v.bd, 0)
	}
	s := v.x.val().aval.Shape
	dims := make([]int, len(s))
	for i := range dims {
		dims[i] = i + 1
	}
	return broadcastInDim(v.x, insertDim(s, 0, size), dims)
}

// broadcasting batches an elementwise binary primitive as JAX's
// broadcast_batcher: operands batched alike (and scalars) go straight
// through; otherwise every non-scalar operand gets its batch dimension in
// front (size 1 for unbatched ones, which the primitive then broadcasts)
// and batched operands of lower rank get trailing size-1 dimensions.
func (b *batcher) broadcasting(e *ir.Eqn, in []bval) []bval {
	var ref bval
	for _, v := range in {
		if v.batched() {
			ref = v
			break
		}
	}
	refShape := ref.x.val().aval.Shape
	same := true
	for _, v := range in {
		if v.x.Ndim() > 0 && (v.bd != ref.bd || !equalInts(v.x.val().aval.Shape, refShape)) {
			same = false
		}
	}
	out := e.Out[0].Aval
	if same {
		args := []Array{in[0].x, in[1].x}
		return b.one(e, withBatch(out, ref.bd, b.size), ref.bd, args...)
	}
	args := make([]Array, len(in))
	nd := 0
	for k, v := range in {
		args[k] = v.x
		if v.x.Ndim() > 0 {
			args[k] = b.atFront(v, 1)
		}
		nd = max(nd, args[k].Ndim())
	}
	for k, v := range in {
		if v.batched() && args[k].Ndim() < nd {
			s := args[k].val().aval.Shape
			shape := append(slices.Clone(s), slices.Repeat([]int{1}, nd-len(s))...)
			dims := make([]int, len(s))
			for i := range dims {
				dims[i] = i
			}
			args[k] = broadcastInDim(args[k], shape, dims)
		}
	}
	return b.one(e, withBatch(out, 0, b.size), 0, args...)
}

// selecting batches select_n and clamp: the chosen-among operands (the
// cases of select_n, the x of clamp) are brought to the full batched shape;
// the predicate (or the bounds) too, unless they are unbatched scalars.
func (b *batcher) selecting(e *ir.Eqn, in []bval) []bval {
	if allBatchedAlike(in) {
		return b.one(e, withBatch(e.Out[0].Aval, in[0].bd, b.size), in[0].bd, arrays(in)...)
	}
	out := withBatch(e.Out[0].Aval, 0, b.size)
	args := make([]Array, len(in))
	for k, v := range in {
		switch {
		case !v.batched() && v.x.Ndim() == 0 && (e.Prim == ir.SelectN && k == 0 || e.Prim == ir.Clamp && k != 1):
			args[k] = v.x
		case v.batched() && v.x.Ndim() == 1 && len(out.Shape) > 1:
			args[k] = broadcastInDim(v.x, out.Shape, []int{0}) // a per-example scalar
		default:
			args[k] = b.full(v)
		}
	}
	return b.one(e, out, 0, args...)
}

// dot batches dot_general as JAX's _dot_general_batch_dim_nums: batched on
// both sides the batch dimension joins the batch dimensions; on one side it
// is a free dimension of that side.
func (b *batcher) dot(e *ir.Eqn, in []bval) []bval {
	dn := e.Params["dimension_numbers"].(ir.DotDims)
	l, r := in[0], in[1]
	nd := ir.DotDims{LhsContract: bumpAll(dn.LhsContract, l.bd), RhsContract: bumpAll(dn.RhsContract, r.bd),
		LhsBatch: bumpAll(dn.LhsBatch, l.bd), RhsBatch: bumpAll(dn.RhsBatch, r.bd)}
	var bd int
	switch {
	case l.batched() && r.batched():
		nd.LhsBatch = append([]int{l.bd}, nd.LhsBatch...)
		nd.RhsBatch = append([]int{r.bd}, nd.RhsBatch...)
		bd = 0
	case l.batched():
		bd = len(nd.LhsBatch) + countFree(l.x.Ndim(), nd.LhsBatch, nd.LhsContract, l.bd)
	default:
		bd = l.x.Ndim() - len(nd.LhsContract) + countFree(r.x.Ndim(), nd.RhsBatch, nd.RhsContract, r.bd)
	}
	params := ir.Params{}
	for k, v := range e.Params {
		params[k] = v
	}
	params["dimension_numbers"] = nd
	return b.oneParams(e, params, withBatch(e.Out[0].Aval, bd, b.size), bd, l.x, r.x)
}

// countFree counts the free (neither batch nor contracting) dimensions of a
// rank-n operand that come before dimension bd.
func countFree(n int, batch, contract []int, bd int) int {
	c := 0
	for d := range bd {
		if d < n && !slices.Contains(batch, d) && !slices.Contains(contract, d) {
			c++
		}
	}
	return c
}

// bump shifts a per-example dimension past the batch dimension bd.
func bump(d, bd int) int {
	if bd != unbatched && d >= bd {
		return d + 1
	}
	return d
}

func bumpAll(ds []int, bd int) []int {
	out := make([]int, len(ds))
	for i, d := range ds {
		out[i] = bump(d, bd)
	}
	return out
}

// withBatch returns a with the batch dimension of the given size at bd.
func withBatch(a ir.Aval, bd, size int) ir.Aval {
	a.Shape = insertDim(a.Shape, bd, size)
	return a
}

func allBatchedAlike(in []bval) bool {
	for _, v := range in {
		if v.bd != in[0].bd || !equalInts(v.x.val().aval.Shape, in[0].x.val().aval.Shape) {
			return false
		}
	}
	return true
}

func arrays(in []bval) []Array {
	out := make([]Array, len(in))
	for k, v := range in {
		out[k] = v.x
	}
	return out
}

func unbatchedAll(xs []Array) []bval {
	out := make([]bval, len(xs))
	for k, x := range xs {
		out[k] = bval{x, unbatched}
	}
	return out
}

func outAvals(e *ir.Eqn) []ir.Aval {
	out := make([]ir.Aval, len(e.Out))
	for k, v := range e.Out {
		out[k] = v.Aval
	}
	return out
}
