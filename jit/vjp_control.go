package jit

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// Reverse-mode rules of cond and scan. Their backward passes recompute the
// forward pass of the branch (or of one scan step) before transposing it,
// so the forward equation stays as it is (a scan only also stacks the
// carries it saw, the residuals of its backward scan).

// condVJP: the backward pass is a cond on the same index whose branches
// are the branches' VJPs.
func condVJP(e *ir.Eqn, in []Array, act []bool) backward {
	branches := e.Params["branches"].([]*ir.ClosedJaxpr)
	index, ops := in[0], in[1:]
	opAct := floatFlags(ops, act[1:])
	return func(ct []Array) []Array {
		var ctIdx []int
		var ctAvals []ir.Aval
		for k, g := range ct {
			if g.v != nil {
				ctIdx = append(ctIdx, k)
				ctAvals = append(ctAvals, g.val().aval)
			}
		}
		subs := make([]sub, len(branches))
		for i, br := range branches {
			subs[i] = traceSub("cond", "branch VJP", append(avalsOf(ops), ctAvals...), func(args []Array) []Array {
				cts := make([]Array, len(br.Jaxpr.Outvars))
				for n, k := range ctIdx {
					cts[k] = args[len(ops)+n]
				}
				_, g := vjpJaxpr(br.Jaxpr, nil, args[:len(ops)], opAct, cts)
				return instantiated(g, ops, opAct)
			})
		}
		consts := unifyConsts(subs)
		bs := make([]*ir.ClosedJaxpr, len(subs))
		for i, s := range subs {
			bs[i] = closed(s.jaxpr)
		}
		var cts []Array
		for _, k := range ctIdx {
			cts = append(cts, ct[k])
		}
		args := slices.Concat([]Array{index}, consts, ops, cts)
		res := bind(ir.Cond, ir.Params{"branches": bs}, subs[0].jaxpr.OutAvals(), args...)
		return append([]Array{{}}, scatter(res, opAct)...)
	}
}

// scanVJP stages a scan that also stacks every step's carry, and returns a
// backward pass that scans the steps in the opposite order, recomputing
// each step and transposing it.
func scanVJP(e *ir.Eqn, in []Array, act []bool) ([]Array, backward) {
	body := e.Params["jaxpr"].(*ir.ClosedJaxpr).Jaxpr
	nc, ncarry := e.Params["num_consts"].(int), e.Params["num_carry"].(int)
	length, reverse := e.Params["length"].(int), e.Params["reverse"].(bool)
	consts, init, xs := in[:nc], in[nc:nc+ncarry], in[nc+ncarry:]
	// Active carries: those differentiated on entry or made so by the body.
	carryAct := floatFlags(init, act[nc:nc+ncarry])
	for {
		outAct := activeOuts(body, slices.Concat(act[:nc], carryAct, act[nc+ncarry:]))
		grew := false
		for k := range carryAct {
			if outAct[k] && !carryAct[k] {
				carryAct[k], grew = true, true
			}
		}
		if !grew {
			break
		}
	}
	allAct := slices.Concat(floatFlags(consts, act[:nc]), carryAct, floatFlags(xs, act[nc+ncarry:]))
	yAct := activeOuts(body, allAct)[ncarry:]
	// Forward: the scan, also stacking the carry each step starts from.
	xsl := sliceAvals(xs)
	fwd := traceSub("scan", "scan body", slices.Concat(avalsOf(consts), avalsOf(init), xsl), func(args []Array) []Array {
		return append(replay(body, args), args[nc:nc+ncarry]...)
	})
	captured := unifyConsts([]sub{fwd})
	outAvals := fwd.jaxpr.OutAvals()
	for k := ncarry; k < len(outAvals); k++ {
		outAvals[k].Shape = insertDim(outAvals[k].Shape, 0, length)
	}
	params := cloneParams(e.Params)
	params["jaxpr"], params["num_consts"] = closed(fwd.jaxpr), len(captured)+nc
	res := bind(ir.Scan, params, outAvals, slices.Concat(captured, in)...)
	outs, stacked := res[:len(e.Out)], res[len(e.Out):]

	back := func(ct []Array) []Array {
		ctCarry := pick(instantiateAll(ct[:ncarry], avalsOf(outs[:ncarry])), carryAct)
		ctYs := pick(instantiateAll(ct[ncarry:], avalsOf(outs[ncarry:])), yAct)
		constAct := allAct[:nc]
		acc := pick(zerosAll(avalsOf(consts)), constAct)
		xAct := allAct[nc+ncarry:]
		carryIn := slices.Concat(ctCarry, acc)
		xsIn := slices.Concat(xs, stacked, ctYs)
		bwd := traceSub("scan", "scan VJP body", slices.Concat(avalsOf(consts), avalsOf(carryIn), sliceAvals(xsIn)), func(args []Array) []Array {
			cs := args[:nc]
			cc, ca := args[nc:nc+len(ctCarry)], args[nc+len(ctCarry):nc+len(carryIn)]
			rest := args[nc+len(carryIn):]
			xi, ci, cy := rest[:len(xs)], rest[len(xs):len(xs)+ncarry], rest[len(xs)+ncarry:]
			cts := append(scatter(cc, carryAct), scatter(cy, yAct)...)
			_, g := vjpJaxpr(body, nil, slices.Concat(cs, ci, xi), allAct, cts)
			gConsts, gCarry, gXs := g[:nc], g[nc:nc+ncarry], g[nc+ncarry:]
			newAcc := pick(instantiateAll(gConsts, avalsOf(cs)), constAct)
			for k := range newAcc {
				newAcc[k] = ca[k].Add(newAcc[k])
			}
			return slices.Concat(pick(instantiateAll(gCarry, avalsOf(ci)), carryAct), newAcc,
				pick(instantiateAll(gXs, avalsOf(xi)), xAct))
		})
		bc := unifyConsts([]sub{bwd})
		bAvals := bwd.jaxpr.OutAvals()
		for k := len(carryIn); k < len(bAvals); k++ {
			bAvals[k].Shape = insertDim(bAvals[k].Shape, 0, length)
		}
		bp := cloneParams(e.Params)
		bp["jaxpr"], bp["num_consts"], bp["num_carry"], bp["reverse"] = closed(bwd.jaxpr), len(bc)+nc, len(carryIn), !reverse
		r := bind(ir.Scan, bp, bAvals, slices.Concat(bc, consts, carryIn, xsIn)...)
		gInit, gConsts, gXs := r[:len(ctCarry)], r[len(ctCarry):len(carryIn)], r[len(carryIn):]
		return slices.Concat(scatter(gConsts, constAct), scatter(gInit, carryAct), scatter(gXs, xAct))
	}
	return outs, back
}

// activeOuts reports which results of j depend on the inputs marked active
// (through float values; stop_gradient cuts the dependence).
func activeOuts(j *ir.Jaxpr, act []bool) []bool {
	a := map[*ir.Var]bool{}
	for i, v := range j.Invars {
		a[v] = act[i] && v.Aval.DType.IsFloat()
	}
	for _, e := range j.Eqns {
		on := false
		for _, x := range e.In {
			if v, ok := x.(*ir.Var); ok && a[v] {
				on = true
			}
		}
		for _, o := range e.Out {
			a[o] = on && e.Prim != ir.StopGradient && o.Aval.DType.IsFloat()
		}
	}
	out := make([]bool, len(j.Outvars))
	for k, x := range j.Outvars {
		if v, ok := x.(*ir.Var); ok {
			out[k] = a[v]
		}
	}
	return out
}

// floatFlags is act restricted to float values.
func floatFlags(xs []Array, act []bool) []bool {
	out := make([]bool, len(xs))
	for k, x := range xs {
		out[k] = act[k] && x.Dtype().IsFloat()
	}
	return out
}

// instantiated returns the cotangents of the flagged values, zeros where nil.
func instantiated(g, like []Array, flags []bool) []Array {
	var out []Array
	for k, f := range flags {
		if f {
			out = append(out, instantiate(g[k], like[k].val().aval))
		}
	}
	return out
}

func instantiateAll(g []Array, avals []ir.Aval) []Array {
	out := make([]Array, len(g))
	for k := range g {
		out[k] = instantiate(g[k], avals[k])
	}
	return out
}

func zerosAll(avals []ir.Aval) []Array {
	out := make([]Array, len(avals))
	for k, a := range avals {
		out[k] = zerosLike(a)
	}
	return out
}

// pick keeps the flagged elements.
func pick(xs []Array, flags []bool) []Array {
	var out []Array
	for k, f := range flags {
		if f {
			out = append(out, xs[k])
		}
	}
	return out
}

// scatter spreads picked elements back to their flagged positions (nil
// elsewhere).
func scatter(xs []Array, flags []bool) []Array {
	out := make([]Array, len(flags))
	n := 0
	for k, f := range flags {
		if f {
			out[k] = xs[n]
			n++
		}
	}
	return out
}

// sliceAvals are the types of one step's slices of stacked arrays.
func sliceAvals(xs []Array) []ir.Aval {
	out := make([]ir.Aval, len(xs))
	for k, x := range xs {
		a := x.val().aval
		out[k] = ir.Aval{Shape: a.Shape[1:], DType: a.DType, Weak: a.Weak}
	}
	return out
}

func cloneParams(p ir.Params) ir.Params {
	out := make(ir.Params, len(p))
	for k, v := range p {
		out[k] = v
	}
	return out
}
