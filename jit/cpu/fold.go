package cpu

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// foldTransposedProducts returns j with each transpose of a dot_general
// result (read by nothing else) that only swaps the lhs and rhs free
// dimensions replaced by one dot_general of the swapped operands, whose
// result is the transposed one: the cotangents Grad emits for a matmul's
// right operand, dot_general then transpose, become one product that
// packs its operands in place and never writes the transpose. Each
// element sums the same products in the same order, so results do not
// change. j itself is not modified; nested jaxprs are folded when planned.
func foldTransposedProducts(j *ir.Jaxpr) *ir.Jaxpr {
	uses := map[*ir.Var]int{}
	for _, e := range j.Eqns {
		for _, a := range e.In {
			if v, ok := a.(*ir.Var); ok {
				uses[v]++
			}
		}
	}
	for _, a := range j.Outvars {
		if v, ok := a.(*ir.Var); ok {
			uses[v]++
		}
	}
	def := map[*ir.Var]int{}
	var out *ir.Jaxpr
	for i, e := range j.Eqns {
		for _, v := range e.Out {
			def[v] = i
		}
		if e.Prim != ir.Transpose || len(e.In) != 1 || len(e.Out) != 1 {
			continue
		}
		v, ok := e.In[0].(*ir.Var)
		di, defined := def[v]
		if !ok || !defined || uses[v] != 1 {
			continue
		}
		swapped := swappedProduct(j.Eqns[di], e)
		if swapped == nil {
			continue
		}
		if out == nil {
			c := *j
			c.Eqns = slices.Clone(j.Eqns)
			out = &c
		}
		out.Eqns[di], out.Eqns[i] = nil, swapped
	}
	if out == nil {
		return j
	}
	out.Eqns = slices.DeleteFunc(out.Eqns, func(e *ir.Eqn) bool { return e == nil })
	return out
}

// swappedProduct returns dot_general(rhs, lhs) computing t's result when t
// transposes d's result with the permutation that keeps the batch
// dimensions and swaps the lhs free dimensions with the rhs ones (each in
// order), or nil.
func swappedProduct(d, t *ir.Eqn) *ir.Eqn {
	dims, ok := d.Params["dimension_numbers"].(ir.DotDims)
	perm, pok := t.Params["permutation"].([]int)
	if d.Prim != ir.DotGeneral || !ok || !pok || len(d.In) != 2 || len(d.Out) != 1 {
		return nil
	}
	nb := len(dims.LhsBatch)
	nl := len(d.In[0].Type().Shape) - nb - len(dims.LhsContract)
	nr := len(d.In[1].Type().Shape) - nb - len(dims.RhsContract)
	if nl < 0 || nr < 0 || len(perm) != nb+nl+nr {
		return nil
	}
	var want []int
	for i := range nb {
		want = append(want, i)
	}
	for i := range nr {
		want = append(want, nb+nl+i)
	}
	for i := range nl {
		want = append(want, nb+i)
	}
	if !slices.Equal(perm, want) {
		return nil
	}
	params := ir.Params{}
	for k, v := range d.Params {
		params[k] = v
	}
	params["dimension_numbers"] = ir.DotDims{LhsContract: dims.RhsContract, RhsContract: dims.LhsContract, LhsBatch: dims.RhsBatch, RhsBatch: dims.LhsBatch}
	return &ir.Eqn{Prim: ir.DotGeneral, Params: params, In: []ir.Atom{d.In[1], d.In[0]}, Out: t.Out, Source: t.Source}
}
