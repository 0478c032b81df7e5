package jit

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// avalsOf returns the types of arrs.
func avalsOf(arrs []Array) []ir.Aval {
	out := make([]ir.Aval, len(arrs))
	for i, a := range arrs {
		out[i] = a.val().aval
	}
	return out
}

// sub is a traced body of a control-flow primitive.
type sub struct {
	jaxpr  *ir.Jaxpr
	consts []*value // what its constvars stand for
}

// traceSub traces fn on fresh inputs of the given types in a nested trace.
func traceSub(kind, name string, avals []ir.Aval, fn func(in []Array) []Array) sub {
	t := pushTrace(kind, name)
	defer t.pop()
	in := make([]Array, len(avals))
	for i, a := range avals {
		in[i] = t.newArg(a, fmt.Sprintf("%s input %d", kind, i))
	}
	out := fn(in)
	return sub{jaxpr: t.jaxpr(out), consts: t.constSrc}
}

// unifyConsts gives each body the same leading inputs, one per value
// captured by any of them (in order of first capture), and returns those
// values: they are passed as operands of the control-flow equation.
func unifyConsts(subs []sub) []Array {
	var all []*value
	index := map[*value]int{}
	for _, s := range subs {
		for _, c := range s.consts {
			if _, ok := index[c]; !ok {
				index[c] = len(all)
				all = append(all, c)
			}
		}
	}
	for _, s := range subs {
		vars := make([]*ir.Var, len(all))
		for k, c := range s.consts {
			vars[index[c]] = s.jaxpr.Constvars[k]
		}
		for k := range vars {
			if vars[k] == nil {
				vars[k] = ir.NewVar(all[k].aval)
			}
		}
		s.jaxpr.Invars = append(vars, s.jaxpr.Invars...)
		s.jaxpr.Constvars = nil
	}
	out := make([]Array, len(all))
	for i, v := range all {
		out[i] = Array{v}
	}
	return out
}

// closed wraps a body jaxpr for an equation parameter.
func closed(j *ir.Jaxpr) *ir.ClosedJaxpr { return &ir.ClosedJaxpr{Jaxpr: j} }
