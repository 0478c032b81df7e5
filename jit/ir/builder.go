package ir

// Builder assembles a jaxpr equation by equation: for programs written by
// hand (tests, benchmarks, the GPU check) rather than traced.
type Builder struct{ j Jaxpr }

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{} }

// Input adds an input of type a.
func (b *Builder) Input(a Aval) *Var {
	v := NewVar(a)
	b.j.Invars = append(b.j.Invars, v)
	return v
}

// In adds a (strongly typed) input of dtype dt and shape.
func (b *Builder) In(dt DType, shape ...int) *Var { return b.Input(Aval{Shape: shape, DType: dt}) }

// Const adds a constvar of type a.
func (b *Builder) Const(a Aval) *Var {
	v := NewVar(a)
	b.j.Constvars = append(b.j.Constvars, v)
	return v
}

// Multi appends an equation with results of the given types and returns them.
func (b *Builder) Multi(prim string, params Params, outs []Aval, in ...Atom) []*Var {
	e := &Eqn{Prim: prim, Params: params, In: in, Out: make([]*Var, len(outs))}
	for i, a := range outs {
		e.Out[i] = NewVar(a)
	}
	b.j.Eqns = append(b.j.Eqns, e)
	return e.Out
}

// Op appends out = prim[params] in and returns out, of type out.
func (b *Builder) Op(prim string, params Params, out Aval, in ...Atom) *Var {
	return b.Multi(prim, params, []Aval{out}, in...)[0]
}

// Same appends an elementwise op whose result has the first operand's type.
func (b *Builder) Same(prim string, in ...Atom) *Var {
	t := in[0].Type()
	return b.Op(prim, nil, Aval{Shape: t.Shape, DType: t.DType}, in...)
}

// Compare appends a comparison (bool result of the first operand's shape).
func (b *Builder) Compare(prim string, x, y Atom) *Var {
	return b.Op(prim, nil, Aval{Shape: x.Type().Shape, DType: Bool}, x, y)
}

// Append appends an equation built elsewhere.
func (b *Builder) Append(e *Eqn) { b.j.Eqns = append(b.j.Eqns, e) }

// Eqns returns the equations so far.
func (b *Builder) Eqns() []*Eqn { return b.j.Eqns }

// Jaxpr finishes the jaxpr with outs as its results.
func (b *Builder) Jaxpr(outs ...Atom) *Jaxpr {
	b.j.Outvars = outs
	j := b.j
	return &j
}

// Done finishes a closed jaxpr (no constants) named name with outs as its results.
func (b *Builder) Done(name string, outs ...Atom) *ClosedJaxpr {
	return &ClosedJaxpr{Jaxpr: b.Jaxpr(outs...), Name: name}
}
