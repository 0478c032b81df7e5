package jit

import (
	"fmt"
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
)

// Cond runs trueFn(operand) if pred is true and falseFn(operand) otherwise,
// as one cond equation: both branches are traced, only one runs. pred is a
// scalar bool Array (or a number, compared with 0) or a Go bool. The branches
// must return the same pytree structure and types.
func Cond[O, R any](pred any, trueFn, falseFn func(O) R, operand O) R {
	var idx Array
	if b, ok := pred.(bool); ok {
		idx = Scalar(map[bool]int32{false: 0, true: 1}[b])
	} else {
		p := asArray(pred)
		if p.Ndim() != 0 {
			throw(ShapeMismatch, "Cond: pred must be a scalar, got shape %v; for an elementwise choice use jit.Where", p.Shape())
		}
		if p.Dtype() != Bool {
			p = p.Ne(0)
		}
		idx = convertTo(p, Int32, false)
	}
	return branch("cond", idx, []func(O) R{falseFn, trueFn}, []string{"the false branch", "the true branch"}, operand)
}

// Switch runs branches[index](operand), with index clamped into range, as one
// cond equation. index is an integer scalar Array or a Go int.
func Switch[O, R any](index any, branches []func(O) R, operand O) R {
	if len(branches) == 0 {
		throw(BadArgument, "Switch needs at least one branch")
	}
	if len(branches) == 1 {
		return branches[0](operand)
	}
	i := asArray(index)
	if i.Ndim() != 0 {
		throw(ShapeMismatch, "Switch: index must be a scalar, got %s", i.val().aval)
	}
	if !(i.Dtype().IsInt() || i.Dtype() == Bool) {
		throw(DTypeMismatch, "Switch: index must be an integer, got %s; convert it with Astype(jit.Int32)", i.val().aval)
	}
	i = convertTo(i, Int32, false)
	lo, hi := Scalar(int32(0)), Scalar(int32(len(branches)-1))
	i = bind(ir.Clamp, nil, []ir.Aval{{DType: Int32}}, lo, i, hi)[0]
	names := make([]string, len(branches))
	for k := range names {
		names[k] = fmt.Sprintf("branch %d", k)
	}
	return branch("switch", i, branches, names, operand)
}

// branch traces every branch on the operand's types and stages one cond
// equation selecting among them.
func branch[O, R any](what string, index Array, branches []func(O) R, names []string, operand O) R {
	leaves, tree := flattenTree(operand, "operand")
	avals := avalsOf(leaves)
	subs := make([]sub, len(branches))
	var outTree *treeDef
	var outAvals []ir.Aval
	for k, fn := range branches {
		var ot *treeDef
		subs[k] = traceSub("cond", what, avals, func(in []Array) []Array {
			r := fn(unflattenTree[O](tree, in))
			var outs []Array
			outs, ot = flattenTree(r, "result")
			return outs
		})
		got := subs[k].jaxpr.OutAvals()
		if k == 0 {
			outTree, outAvals = ot, got
			continue
		}
		if ot.String() != outTree.String() || !typeMatchAll(got, outAvals) {
			throw(BranchMismatch, "%s: %s returns %s %s but %s returns %s %s; all branches must return the same structure, shapes and dtypes",
				what, names[k], ot, typesString(got), names[0], outTree, typesString(outAvals))
		}
		for i := range outAvals {
			outAvals[i].Weak = outAvals[i].Weak && got[i].Weak
		}
	}
	consts := unifyConsts(subs)
	bs := make([]*ir.ClosedJaxpr, len(subs))
	for k, s := range subs {
		bs[k] = closed(s.jaxpr)
	}
	args := append(append([]Array{index}, consts...), leaves...)
	outs := bind(ir.Cond, ir.Params{"branches": bs}, outAvals, args...)
	return unflattenTree[R](outTree, outs)
}

func typeMatchAll(a, b []ir.Aval) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].TypeMatch(b[i]) {
			return false
		}
	}
	return true
}

// typesString renders avals as "(f32[3], i32[])".
func typesString(avals []ir.Aval) string {
	parts := make([]string, len(avals))
	for i, a := range avals {
		parts[i] = a.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
