package jit

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
)

// flattenTree flattens a pytree value of static type T into Array leaves.
func flattenTree[T any](x T, path string) ([]Array, *treeDef) {
	f := &flattener{}
	tree := f.walk(reflect.TypeFor[T](), reflect.ValueOf(&x).Elem(), path)
	arrs := make([]Array, len(f.leaves))
	for i, l := range f.leaves {
		arrs[i] = l.arr
	}
	return arrs, tree
}

// unflattenTree rebuilds a value of type T from leaves.
func unflattenTree[T any](tree *treeDef, leaves []Array) T {
	next := 0
	v := tree.build(leaves, &next)
	if !v.IsValid() {
		var zero T
		return zero
	}
	return v.Interface().(T)
}

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

// typesString renders avals as "(f32[3], i32[])".
func typesString(avals []ir.Aval) string {
	parts := make([]string, len(avals))
	for i, a := range avals {
		parts[i] = a.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// checkCarry compares a loop body's carry outputs with its carry inputs. It
// returns the input types to retrace with when a weakly typed input must be
// promoted to the output's dtype (as JAX does), or nil when they match.
func checkCarry(what string, tree *treeDef, outTree *treeDef, in, out []ir.Aval) []ir.Aval {
	if tree.String() != outTree.String() {
		throw(BranchMismatch, "%s must return a carry with the same structure as its input: got %s, expected %s", what, outTree, tree)
	}
	var retry []ir.Aval
	for i := range in {
		if in[i].TypeMatch(out[i]) {
			continue
		}
		if in[i].Weak && equalInts(in[i].Shape, out[i].Shape) {
			if retry == nil {
				retry = append([]ir.Aval{}, in...)
			}
			retry[i] = out[i]
			continue
		}
		throw(BranchMismatch, "%s must return a carry of the same types as its input: carry %d is %s on input but %s on output "+
			"(the carry's shape and dtype are fixed for the whole loop)", what, i, in[i], out[i])
	}
	return retry
}

// convertAll converts leaves to the given types (for carry promotion).
func convertAll(leaves []Array, avals []ir.Aval) []Array {
	out := make([]Array, len(leaves))
	for i, l := range leaves {
		out[i] = convertTo(l, avals[i].DType, avals[i].Weak)
	}
	return out
}
