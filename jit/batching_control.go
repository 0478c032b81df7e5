package jit

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// Batching rules of the control-flow primitives and nested jit.

// cond batches a cond equation. With a batched index every branch runs on
// the (batched) operands, inlined, and select_n chooses each result per
// element; with an unbatched index it stays a cond of batched branches.
func (b *batcher) cond(e *ir.Eqn, in []bval) []bval {
	branches := e.Params["branches"].([]*ir.ClosedJaxpr)
	idx, ops := in[0], in[1:]
	if idx.batched() {
		index := b.front(idx)
		full := make([]bval, len(ops))
		for k, v := range ops {
			full[k] = bval{b.full(v), 0}
		}
		outs := make([][]Array, len(branches))
		for i, br := range branches {
			// Each branch sees the operands only where it is chosen (and a
			// stop_gradient elsewhere), so that the gradient of a branch
			// where it is not chosen cannot reach them (JAX issue #1052).
			chosen := bind(ir.Eq, nil, []ir.Aval{{Shape: index.Shape(), DType: Bool}}, index, Scalar(int32(i)))[0]
			guarded := make([]bval, len(full))
			for k, v := range full {
				guarded[k] = bval{selectN(chosen, []Array{StopGradient(v.x), v.x}), 0}
			}
			for _, o := range b.run(br.Jaxpr, nil, guarded) {
				outs[i] = append(outs[i], b.full(o))
			}
		}
		res := make([]bval, len(e.Out))
		for k := range e.Out {
			cases := make([]Array, len(branches))
			for i := range branches {
				cases[i] = outs[i][k]
			}
			res[k] = bval{selectN(index, cases), 0}
		}
		return res
	}
	front := b.fronts(ops)
	avals := batchedAvals(front)
	var union []bool
	for pass := 0; pass < 2; pass++ {
		subs := make([]sub, len(branches))
		var outBatched []bool
		for i, br := range branches {
			subs[i] = traceSub("cond", "batched branch", avals, func(args []Array) []Array {
				res := b.run(br.Jaxpr, nil, rebatch(args, front))
				if pass == 0 {
					outBatched = orBatched(outBatched, res)
					return arrays(res)
				}
				return b.force(res, union)
			})
		}
		if pass == 0 {
			union = outBatched
			continue
		}
		consts := unifyConsts(subs)
		bs := make([]*ir.ClosedJaxpr, len(subs))
		for i, s := range subs {
			bs[i] = closed(s.jaxpr)
		}
		args := append(append([]Array{idx.x}, consts...), arrays(front)...)
		outs := bind(ir.Cond, ir.Params{"branches": bs}, subs[0].jaxpr.OutAvals(), args...)
		return withBds(outs, union)
	}
	panic("unreachable")
}

// selectN chooses among cases (of one shape, batch dimension in front) by a
// batched index or predicate, broadcast to the cases' shape.
func selectN(index Array, cases []Array) Array {
	shape := cases[0].val().aval.Shape
	if index.Ndim() < len(shape) {
		index = broadcastInDim(index, shape, []int{0})
	}
	out := cases[0].val().aval
	args := append([]Array{index}, cases...)
	return bind(ir.SelectN, nil, []ir.Aval{out}, args...)[0]
}

// scan batches a scan: consts and carries with the batch dimension in
// front, xs with it at 1 (so that each step's slice has it in front); a
// carry is batched when its initial value or the body makes it so (found
// by iterating to a fixed point).
func (b *batcher) scan(e *ir.Eqn, in []bval) []bval {
	body := e.Params["jaxpr"].(*ir.ClosedJaxpr).Jaxpr
	nc, ncarry := e.Params["num_consts"].(int), e.Params["num_carry"].(int)
	length := e.Params["length"].(int)
	consts := b.fronts(in[:nc])
	carryBatched := batchedFlags(in[nc : nc+ncarry])
	xs := make([]bval, 0, len(in)-nc-ncarry)
	for _, v := range in[nc+ncarry:] {
		if v.batched() {
			v = bval{moveAxis(v.x, v.bd, 1), 1}
		}
		xs = append(xs, v)
	}
	for {
		carry := b.forceFront(in[nc:nc+ncarry], carryBatched)
		xslices := make([]bval, len(xs))
		for k, v := range xs {
			a := v.x.val().aval
			sl := ir.Aval{Shape: a.Shape[1:], DType: a.DType, Weak: a.Weak}
			bd := unbatched
			if v.batched() {
				bd = 0
			}
			xslices[k] = bval{Array{&value{aval: sl}}, bd}
		}
		all := slices.Concat(consts, carry, xslices)
		var yBatched []bool
		grew := false
		s := traceSub("scan", "batched scan body", batchedAvals(all), func(args []Array) []Array {
			res := b.run(body, nil, rebatch(args, all))
			for k, o := range res[:ncarry] {
				if o.batched() && !carryBatched[k] {
					carryBatched[k], grew = true, true
				}
			}
			yBatched = batchedFlags(res[ncarry:])
			return append(b.force(res[:ncarry], carryBatched), frontsArrays(b, res[ncarry:])...)
		})
		if grew {
			continue
		}
		captured := unifyConsts([]sub{s})
		outs := s.jaxpr.OutAvals()
		for k := ncarry; k < len(outs); k++ {
			outs[k].Shape = insertDim(outs[k].Shape, 0, length)
		}
		params := ir.Params{}
		for k, v := range e.Params {
			params[k] = v
		}
		params["jaxpr"] = closed(s.jaxpr)
		params["num_consts"] = len(captured) + nc
		args := slices.Concat(captured, arrays(consts), arrays(carry), arrays(xs))
		res := bind(ir.Scan, params, outs, args...)
		out := withBds(res[:ncarry], carryBatched)
		for k, y := range res[ncarry:] {
			bd := unbatched
			if yBatched[k] {
				bd = 1
			}
			out = append(out, bval{y, bd})
		}
		return out
	}
}

// while batches a while loop. When the condition depends on the mapped
// arguments, the loop runs while any element's condition holds (a
// reduce_max of the batched predicate) and the body freezes finished
// elements with select_n, as JAX's while batching rule does.
func (b *batcher) while(e *ir.Eqn, in []bval) []bval {
	condJ := e.Params["cond_jaxpr"].(*ir.ClosedJaxpr).Jaxpr
	bodyJ := e.Params["body_jaxpr"].(*ir.ClosedJaxpr).Jaxpr
	ncc, nbc := e.Params["cond_nconsts"].(int), e.Params["body_nconsts"].(int)
	cconsts, bconsts := b.fronts(in[:ncc]), b.fronts(in[ncc:ncc+nbc])
	init := in[ncc+nbc:]
	carryBatched := batchedFlags(init)
	predBatched := false
	for {
		carry := b.forceFront(init, carryBatched)
		grew := false
		traceSub("while", "batched while body", batchedAvals(slices.Concat(bconsts, carry)), func(args []Array) []Array {
			res := b.run(bodyJ, nil, rebatch(args, slices.Concat(bconsts, carry)))
			for k, o := range res {
				if o.batched() && !carryBatched[k] {
					carryBatched[k], grew = true, true
				}
			}
			return arrays(res)
		})
		traceSub("while", "batched while cond", batchedAvals(slices.Concat(cconsts, carry)), func(args []Array) []Array {
			p := b.run(condJ, nil, rebatch(args, slices.Concat(cconsts, carry)))[0]
			predBatched = p.batched()
			return []Array{p.x}
		})
		if predBatched && slices.Contains(carryBatched, false) {
			for k := range carryBatched {
				carryBatched[k] = true
			}
			continue
		}
		if !grew {
			break
		}
	}
	carry := b.forceFront(init, carryBatched)
	cs := traceSub("while", "batched while cond", batchedAvals(slices.Concat(cconsts, carry)), func(args []Array) []Array {
		p := b.run(condJ, nil, rebatch(args, slices.Concat(cconsts, carry)))[0]
		if !p.batched() {
			return []Array{p.x}
		}
		return []Array{reduce(ir.ReduceMax, p.x, []int{0})} // any element still running
	})
	var bs sub
	if predBatched {
		all := slices.Concat(cconsts, bconsts, carry)
		bs = traceSub("while", "batched while body", batchedAvals(all), func(args []Array) []Array {
			vals := rebatch(args, all)
			cv, bv, old := vals[:len(cconsts)], vals[len(cconsts):len(cconsts)+len(bconsts)], vals[len(cconsts)+len(bconsts):]
			pred := b.run(condJ, nil, slices.Concat(cv, old))[0].x
			next := b.force(b.run(bodyJ, nil, slices.Concat(bv, old)), carryBatched)
			out := make([]Array, len(next))
			for k := range next {
				out[k] = selectN(pred, []Array{old[k].x, next[k]})
			}
			return out
		})
		bconsts = slices.Concat(cconsts, bconsts)
	} else {
		all := slices.Concat(bconsts, carry)
		bs = traceSub("while", "batched while body", batchedAvals(all), func(args []Array) []Array {
			return b.force(b.run(bodyJ, nil, rebatch(args, all)), carryBatched)
		})
	}
	cc := unifyConsts([]sub{cs})
	bc := unifyConsts([]sub{bs})
	params := ir.Params{"cond_jaxpr": closed(cs.jaxpr), "cond_nconsts": len(cc) + len(cconsts),
		"body_jaxpr": closed(bs.jaxpr), "body_nconsts": len(bc) + len(bconsts)}
	args := slices.Concat(cc, arrays(cconsts), bc, arrays(bconsts), arrays(carry))
	res := bind(ir.While, params, bs.jaxpr.OutAvals(), args...)
	return withBds(res, carryBatched)
}

// jit batches a nested jit equation into a jit equation of the batched
// inner jaxpr (batched results with the batch dimension in front).
func (b *batcher) jit(e *ir.Eqn, in []bval) []bval {
	s, args, outBatched := b.body(e, "jaxpr", in)
	captured := unifyConsts([]sub{s})
	cj := &ir.ClosedJaxpr{Jaxpr: s.jaxpr, Name: e.Params["jaxpr"].(*ir.ClosedJaxpr).Name}
	name, _ := e.Params["name"].(string)
	outs := bind(ir.Jit, ir.Params{"name": name, "jaxpr": cj}, s.jaxpr.OutAvals(), append(captured, args...)...)
	return withBds(outs, outBatched)
}

// custom batches a custom_jvp_call into a custom_jvp_call of the batched
// body with the same rule, as JAX's batching of custom_jvp does (the rule
// is written for any shape).
func (b *batcher) custom(e *ir.Eqn, in []bval) []bval {
	s, args, outBatched := b.body(e, "call_jaxpr", in)
	name, _ := e.Params["name"].(string)
	rule, _ := e.Params["jvp"].(ir.JVPRule)
	n, _ := e.Params["num_consts"].(int)
	return withBds(stageCustom(name, rule, s, args, n), outBatched)
}

// body traces the batched body of a call equation (its jaxpr parameter
// key) on the operands in with their batch dimensions in front, which it
// returns; outBatched tells which results are batched.
func (b *batcher) body(e *ir.Eqn, key string, in []bval) (s sub, args []Array, outBatched []bool) {
	inner := e.Params[key].(*ir.ClosedJaxpr)
	name, _ := e.Params["name"].(string)
	fr := b.fronts(in)
	s = traceSub(e.Prim, name, batchedAvals(fr), func(xs []Array) []Array {
		res := b.run(inner.Jaxpr, nil, rebatch(xs, fr))
		outBatched = batchedFlags(res)
		return frontsArrays(b, res)
	})
	return s, arrays(fr), outBatched
}

// fronts moves the batch dimension of every batched value to 0.
func (b *batcher) fronts(vs []bval) []bval {
	out := make([]bval, len(vs))
	for k, v := range vs {
		out[k] = v
		if v.batched() {
			out[k] = bval{b.front(v), 0}
		}
	}
	return out
}

func frontsArrays(b *batcher, vs []bval) []Array { return arrays(b.fronts(vs)) }

// forceFront returns vs with the batch dimension in front, broadcasting the
// unbatched ones that want[k] says must be batched.
func (b *batcher) forceFront(vs []bval, want []bool) []bval {
	out := b.fronts(vs)
	for k, v := range out {
		if want[k] && !v.batched() {
			out[k] = bval{b.full(v), 0}
		}
	}
	return out
}

// force is forceFront's Arrays.
func (b *batcher) force(vs []bval, want []bool) []Array { return arrays(b.forceFront(vs, want)) }

// batchedAvals returns the types of values (batch dimensions in front).
func batchedAvals(vs []bval) []ir.Aval {
	out := make([]ir.Aval, len(vs))
	for k, v := range vs {
		out[k] = v.x.val().aval
	}
	return out
}

// rebatch pairs a sub-trace's inputs with the batch dimensions of the
// values they stand for.
func rebatch(xs []Array, like []bval) []bval {
	out := make([]bval, len(xs))
	for k, x := range xs {
		out[k] = bval{x, like[k].bd}
	}
	return out
}

func batchedFlags(vs []bval) []bool {
	out := make([]bool, len(vs))
	for k, v := range vs {
		out[k] = v.batched()
	}
	return out
}

func orBatched(acc []bool, vs []bval) []bool {
	if acc == nil {
		acc = make([]bool, len(vs))
	}
	for k, v := range vs {
		acc[k] = acc[k] || v.batched()
	}
	return acc
}

// withBds pairs results with batch dimension 0 where batched[k].
func withBds(xs []Array, batched []bool) []bval {
	out := make([]bval, len(xs))
	for k, x := range xs {
		out[k] = bval{x, unbatched}
		if batched[k] {
			out[k].bd = 0
		}
	}
	return out
}
