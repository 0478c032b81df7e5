package gpu

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// lowerDot lowers dot_general to the tiled kernel: operands are first
// transposed (when needed) to [batch, free, contract] and [batch, contract,
// free], which makes the product a batched matrix product.
func (l *lowerer) lowerDot(p *program, e *ir.Eqn) error {
	dims, ok := e.Params["dimension_numbers"].(ir.DotDims)
	if !ok {
		return eqnError(e, fmt.Errorf("dimension_numbers is %T, want ir.DotDims", e.Params["dimension_numbers"]))
	}
	lhs, rhs := p.array(e.In[0]), p.array(e.In[1])
	t := lhs.Aval.DType
	if rhs.Aval.DType != t || e.Out[0].Aval.DType != t {
		return eqnError(e, fmt.Errorf("mixed dtypes %v x %v -> %v are not supported by the gpu backend", t, rhs.Aval.DType, e.Out[0].Aval.DType))
	}
	lfree := dims.LhsFree(lhs.Aval.Ndim())
	rfree := dims.RhsFree(rhs.Aval.Ndim())
	a, err := l.permute(p, lhs, concat(dims.LhsBatch, lfree, dims.LhsContract))
	if err != nil {
		return err
	}
	b, err := l.permute(p, rhs, concat(dims.RhsBatch, dims.RhsContract, rfree))
	if err != nil {
		return err
	}
	size := func(v *ir.Var, ds []int) int {
		n := 1
		for _, d := range ds {
			n *= v.Aval.Shape[d]
		}
		return n
	}
	s := dotShape{b: size(lhs, dims.LhsBatch), m: size(lhs, lfree), k: size(lhs, dims.LhsContract), n: size(rhs, rfree)}
	k, grid, err := emitDot(l.newKernelName(), t, s)
	if err != nil {
		return eqnError(e, err)
	}
	return l.add(p, k, grid, []*ir.Var{a, b, e.Out[0]}, e.Out)
}

// permute returns v transposed by perm, through a transpose kernel unless
// perm is the identity.
func (l *lowerer) permute(p *program, v *ir.Var, perm []int) (*ir.Var, error) {
	identity := true
	for i, d := range perm {
		identity = identity && i == d
	}
	if identity {
		return v, nil
	}
	shape := make([]int, len(perm))
	for i, d := range perm {
		shape[i] = v.Aval.Shape[d]
	}
	out := ir.NewVar(ir.Aval{Shape: shape, DType: v.Aval.DType})
	te := &ir.Eqn{Prim: ir.Transpose, Params: ir.Params{"permutation": perm}, In: []ir.Atom{v}, Out: []*ir.Var{out}}
	k, grid, err := emitIndex(l.newKernelName(), te)
	if err != nil {
		return nil, err
	}
	return out, l.add(p, k, grid, []*ir.Var{v, out}, te.Out)
}

// concat joins int slices.
func concat(parts ...[]int) []int {
	var out []int
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
