// Package codelab builds, with ir types, the jaxprs of the codelab's
// functions (x**2+1, heavy, sum(x**2), where, cond, the unrolled loop and its
// scan, masked mean, power, make_jaxpr's example) plus a few shape-heavy ones,
// with their arguments. The gpu tests use them for golden PTX and
// correctness against the reference evaluator, and the GPU check program
// runs them on a device.
package codelab

import "github.com/jitlint/jitlint/jit/ir"

// Builder appends equations to a jaxpr.
type Builder struct{ j *ir.Jaxpr }

// New returns an empty builder.
func New() *Builder { return &Builder{j: &ir.Jaxpr{}} }

// In adds an input of dtype dt and shape.
func (b *Builder) In(dt ir.DType, shape ...int) *ir.Var {
	v := ir.NewVar(ir.Aval{Shape: shape, DType: dt})
	b.j.Invars = append(b.j.Invars, v)
	return v
}

// Op appends out = prim[params] in and returns out, of type out.
func (b *Builder) Op(prim string, params ir.Params, out ir.Aval, in ...ir.Atom) *ir.Var {
	v := ir.NewVar(out)
	if params == nil {
		params = ir.Params{}
	}
	b.j.Eqns = append(b.j.Eqns, &ir.Eqn{Prim: prim, Params: params, In: in, Out: []*ir.Var{v}})
	return v
}

// Multi appends an equation with several outputs.
func (b *Builder) Multi(prim string, params ir.Params, outs []ir.Aval, in ...ir.Atom) []*ir.Var {
	vs := make([]*ir.Var, len(outs))
	for i, a := range outs {
		vs[i] = ir.NewVar(a)
	}
	b.j.Eqns = append(b.j.Eqns, &ir.Eqn{Prim: prim, Params: params, In: in, Out: vs})
	return vs
}

// Same appends an elementwise op whose result has the first operand's type.
func (b *Builder) Same(prim string, in ...ir.Atom) *ir.Var {
	t := in[0].Type()
	return b.Op(prim, nil, ir.Aval{Shape: t.Shape, DType: t.DType}, in...)
}

// Compare appends a comparison (bool result).
func (b *Builder) Compare(prim string, x, y ir.Atom) *ir.Var {
	return b.Op(prim, nil, ir.Aval{Shape: x.Type().Shape, DType: ir.Bool}, x, y)
}

// Done closes the jaxpr with outs as its results.
func (b *Builder) Done(name string, outs ...ir.Atom) *ir.ClosedJaxpr {
	b.j.Outvars = outs
	return &ir.ClosedJaxpr{Jaxpr: b.j, Name: name}
}

// F32 is a weakly typed f32 literal.
func F32(v float64) ir.Literal {
	return ir.Literal{Value: v, Aval: ir.Aval{DType: ir.Float32, Weak: true}}
}

// I32 is an i32 literal.
func I32(v int) ir.Literal { return ir.Literal{Value: float64(v), Aval: ir.Aval{DType: ir.Int32}} }

// Arange returns f32 [0, 1, ..., n-1] times scale.
func Arange(n int, scale float64) *ir.Buffer {
	b := ir.NewBuffer(ir.Float32, []int{n})
	for i := range n {
		b.Set(i, float64(i)*scale)
	}
	return b
}

// Vec returns an f32 vector.
func Vec(vs ...float64) *ir.Buffer {
	b := ir.NewBuffer(ir.Float32, []int{len(vs)})
	for i, v := range vs {
		b.Set(i, v)
	}
	return b
}
