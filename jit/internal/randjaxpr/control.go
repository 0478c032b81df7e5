package randjaxpr

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// Control-flow operations for New (Options.ControlFlow).

// sub starts a nested jaxpr generator with inputs of the given types.
func (g *gen) sub(avals ...ir.Aval) *gen {
	s := &gen{r: g.r, opts: g.opts}
	for _, a := range avals {
		s.in(strong(a, a.Shape))
	}
	return s
}

// body runs n random steps and returns the nested jaxpr with the most
// recent values of the given output types as outputs.
func (s *gen) body(depth, n int, outs ...ir.Aval) *ir.ClosedJaxpr {
	for range n {
		s.step(depth)
	}
	for _, a := range outs {
		s.j.Outvars = append(s.j.Outvars, s.changed(a))
	}
	j := s.j
	return &ir.ClosedJaxpr{Jaxpr: &j}
}

// changed returns the most recent variable of type a, first applying an
// elementwise operation when that is one of the jaxpr's inputs, so that
// nested jaxprs do not merely pass their inputs through.
func (s *gen) changed(a ir.Aval) *ir.Var {
	v := s.latest(a)
	if !slices.Contains(s.j.Invars, v) {
		return v
	}
	switch {
	case a.DType.IsFloat():
		return s.emit(ir.Sin, nil, a, v)
	case a.DType.IsInt():
		return s.emit(ir.Add, nil, a, v, ir.Literal{Value: 1, Aval: ir.Aval{DType: a.DType}})
	}
	return s.emit(ir.Not, nil, a, v)
}

// avalsOf returns the variables' types.
func avalsOf(vs []*ir.Var) []ir.Aval {
	out := make([]ir.Aval, len(vs))
	for i, v := range vs {
		out[i] = strong(v.Aval, v.Aval.Shape)
	}
	return out
}

// cond emits a cond with 2 or 3 branches over 1 or 2 operands; the index
// comes from converting a reduced float to int32 (out of range on purpose
// sometimes: cond clamps).
func (g *gen) cond(depth int) bool {
	f := g.pick(isFloat)
	if f == nil {
		return false
	}
	s := f
	if len(f.Aval.Shape) > 0 {
		axes := make([]int, len(f.Aval.Shape))
		for i := range axes {
			axes[i] = i
		}
		s = g.emit(ir.ReduceSum, ir.Params{"axes": axes, "out_sharding": nil}, strong(f.Aval, nil), f)
	}
	idx := g.emit(ir.ConvertElementType, ir.Params{"new_dtype": ir.Int32, "weak_type": false, "sharding": nil}, ir.Aval{DType: ir.Int32}, s)
	ops := []*ir.Var{g.pick(anyAval)}
	if g.r.IntN(2) == 0 {
		ops = append(ops, g.pick(anyAval))
	}
	out := strong(ops[0].Aval, ops[0].Aval.Shape)
	branches := make([]*ir.ClosedJaxpr, 2+g.r.IntN(2))
	for i := range branches {
		branches[i] = g.sub(avalsOf(ops)...).body(depth+1, 1+g.r.IntN(3), out)
	}
	in := []ir.Atom{idx}
	for _, o := range ops {
		in = append(in, o)
	}
	g.emit(ir.Cond, ir.Params{"branches": branches}, out, in...)
	return true
}

// scan emits a scan over the leading axis of a variable with one or two
// carries (the first a bounded float accumulator) and one y.
func (g *gen) scan(depth int) bool {
	xs := g.pick(func(a ir.Aval) bool { return len(a.Shape) > 0 && a.DType.IsFloat() })
	if xs == nil {
		return false
	}
	var consts []*ir.Var
	if g.r.IntN(2) == 0 {
		consts = append(consts, g.pick(anyAval))
	}
	xa := strong(xs.Aval, xs.Aval.Shape[1:])
	acc := ir.Aval{DType: xa.DType}
	carries := []ir.Aval{acc}
	var extra *ir.Var
	if g.r.IntN(2) == 0 {
		extra = g.pick(anyAval)
		carries = append(carries, strong(extra.Aval, extra.Aval.Shape))
	}
	s := g.sub(append(append(avalsOf(consts), carries...), xa)...)
	for range 1 + g.r.IntN(3) {
		s.step(depth + 1)
	}
	// acc' = acc*0.5 + tanh(sum(latest value of x's type)).
	lat := s.latest(xa)
	sum := lat
	if len(xa.Shape) > 0 {
		axes := make([]int, len(xa.Shape))
		for i := range axes {
			axes[i] = i
		}
		sum = s.emit(ir.ReduceSum, ir.Params{"axes": axes, "out_sharding": nil}, acc, lat)
	}
	half := ir.Literal{Value: 0.5, Aval: ir.Aval{DType: acc.DType}}
	acc2 := s.emit(ir.Add, nil, acc, s.emit(ir.Mul, nil, acc, s.j.Invars[len(consts)], half), s.emit(ir.Tanh, nil, acc, sum))
	y := s.pool[g.r.IntN(len(s.pool))]
	s.j.Outvars = []ir.Atom{acc2}
	if extra != nil {
		s.j.Outvars = append(s.j.Outvars, s.changed(carries[1]))
	}
	s.j.Outvars = append(s.j.Outvars, y)
	body := s.j
	length := xs.Aval.Shape[0]
	var in []ir.Atom
	for _, c := range consts {
		in = append(in, c)
	}
	in = append(in, ir.Literal{Value: 0, Aval: acc})
	if extra != nil {
		in = append(in, extra)
	}
	in = append(in, xs)
	outs := append(slices.Clone(carries), ir.Aval{DType: y.Aval.DType, Shape: append([]int{length}, y.Aval.Shape...)})
	e := &ir.Eqn{Prim: ir.Scan, In: in, Params: ir.Params{
		"jaxpr": &ir.ClosedJaxpr{Jaxpr: &body}, "length": length, "num_consts": len(consts),
		"num_carry": len(carries), "reverse": g.r.IntN(2) == 0, "unroll": 1,
	}}
	for _, a := range outs {
		v := ir.NewVar(a)
		e.Out = append(e.Out, v)
		g.pool = append(g.pool, v)
	}
	g.j.Eqns = append(g.j.Eqns, e)
	return true
}

// while emits a while loop running 0 to 3 times: carry (i i32[], v), cond
// i < n, body (i+1, random function of v and an optional body const).
func (g *gen) while(depth int) bool {
	v := g.pick(anyAval)
	va := strong(v.Aval, v.Aval.Shape)
	i32 := ir.Aval{DType: ir.Int32}
	var cconsts, bconsts []*ir.Var
	if g.r.IntN(2) == 0 {
		cconsts = append(cconsts, g.pick(anyAval))
	}
	if g.r.IntN(2) == 0 {
		bconsts = append(bconsts, g.pick(anyAval))
	}
	c := g.sub(append(avalsOf(cconsts), i32, va)...)
	lt := c.emit(ir.Lt, nil, ir.Aval{DType: ir.Bool}, c.j.Invars[len(cconsts)], ir.Literal{Value: float64(g.r.IntN(4)), Aval: i32})
	c.j.Outvars = []ir.Atom{lt}
	cj := c.j
	b := g.sub(append(avalsOf(bconsts), i32, va)...)
	i2 := b.emit(ir.Add, nil, i32, b.j.Invars[len(bconsts)], ir.Literal{Value: 1, Aval: i32})
	for range 1 + g.r.IntN(3) {
		b.step(depth + 1)
	}
	b.j.Outvars = []ir.Atom{i2, b.changed(va)}
	bj := b.j
	var in []ir.Atom
	for _, x := range cconsts {
		in = append(in, x)
	}
	for _, x := range bconsts {
		in = append(in, x)
	}
	in = append(in, ir.Literal{Value: 0, Aval: i32}, v)
	e := &ir.Eqn{Prim: ir.While, In: in, Params: ir.Params{
		"cond_jaxpr": &ir.ClosedJaxpr{Jaxpr: &cj}, "body_jaxpr": &ir.ClosedJaxpr{Jaxpr: &bj},
		"cond_nconsts": len(cconsts), "body_nconsts": len(bconsts),
	}}
	for _, a := range []ir.Aval{i32, va} {
		out := ir.NewVar(a)
		e.Out = append(e.Out, out)
		g.pool = append(g.pool, out)
	}
	g.j.Eqns = append(g.j.Eqns, e)
	return true
}
