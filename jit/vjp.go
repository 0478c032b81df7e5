package jit

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// Reverse-mode differentiation of a jaxpr (Grad's engine): a forward pass
// stages every equation again, each differentiated one followed by the
// residuals its derivative needs (JAX's linearization puts them there too),
// then a backward pass stages the transposed derivative of each, in
// reverse. Cotangents that are known to be zero are nil and never staged.

// backward maps the cotangents of an equation's results (nil: zero) to those
// of its operands (nil: zero, or not differentiated).
type backward func(ct []Array) []Array

// tapeEntry is one differentiated equation.
type tapeEntry struct {
	in   []ir.Atom
	out  []*ir.Var
	back backward
}

// vjp differentiates one jaxpr.
type vjp struct {
	primal map[*ir.Var]Array
	active map[*ir.Var]bool // depends on a differentiated input
	tape   []tapeEntry
}

// vjpJaxpr stages j's forward pass on args and, for the cotangents cts of
// its results (nil: zero), the backward pass; it returns the results and the
// cotangents of the inputs marked active (nil where zero or inactive).
func vjpJaxpr(j *ir.Jaxpr, consts, args []Array, active []bool, cts []Array) (outs, ctIn []Array) {
	d := linearize(j, consts, args, active)
	outs = make([]Array, len(j.Outvars))
	for k, a := range j.Outvars {
		outs[k] = d.read(a)
	}
	return outs, d.pull(j, cts)
}

// replay stages j again on args (no differentiation).
func replay(j *ir.Jaxpr, args []Array) []Array {
	d := linearize(j, nil, args, make([]bool, len(args)))
	outs := make([]Array, len(j.Outvars))
	for k, a := range j.Outvars {
		outs[k] = d.read(a)
	}
	return outs
}

// linearize stages j's forward pass and returns its tape.
func linearize(j *ir.Jaxpr, consts, args []Array, active []bool) *vjp {
	d := &vjp{primal: map[*ir.Var]Array{}, active: map[*ir.Var]bool{}}
	for i, v := range j.Constvars {
		d.primal[v] = consts[i]
	}
	for i, v := range j.Invars {
		d.primal[v] = args[i]
		d.active[v] = active[i] && v.Aval.DType.IsFloat()
	}
	d.forward(j.Eqns)
	return d
}

// pull stages the backward pass of a linearized j for the cotangents of
// its results and returns those of its inputs.
func (d *vjp) pull(j *ir.Jaxpr, cts []Array) []Array {
	ctv := map[*ir.Var]Array{}
	for k, a := range j.Outvars {
		if v, ok := a.(*ir.Var); ok && cts[k].v != nil && d.active[v] {
			accumulate(ctv, v, cts[k])
		}
	}
	d.backward(ctv)
	ctIn := make([]Array, len(j.Invars))
	for i, v := range j.Invars {
		ctIn[i] = ctv[v]
	}
	return ctIn
}

func (d *vjp) read(a ir.Atom) Array {
	if l, ok := a.(ir.Literal); ok {
		return literalArray(l)
	}
	return d.primal[a.(*ir.Var)]
}

func (d *vjp) isActive(a ir.Atom) bool {
	v, ok := a.(*ir.Var)
	return ok && d.active[v]
}

// forward stages eqns, recording the differentiated ones on the tape.
func (d *vjp) forward(eqns []*ir.Eqn) {
	for _, e := range eqns {
		in := make([]Array, len(e.In))
		act := make([]bool, len(e.In))
		for k, a := range e.In {
			in[k] = d.read(a)
			act[k] = d.isActive(a)
		}
		if !slices.Contains(act, true) || e.Prim == ir.StopGradient {
			for k, o := range bind(e.Prim, e.Params, outAvals(e), in...) {
				d.primal[e.Out[k]] = o
			}
			continue
		}
		if e.Prim == ir.Jit { // inlined: its forward equations join this pass
			inner := e.Params["jaxpr"].(*ir.ClosedJaxpr).Jaxpr
			sub := linearize(inner, nil, in, act)
			for k, a := range inner.Outvars {
				d.primal[e.Out[k]] = sub.read(a)
				d.active[e.Out[k]] = sub.isActive(a)
			}
			d.tape = append(d.tape, tapeEntry{in: e.In, out: e.Out, back: func(ct []Array) []Array { return sub.pull(inner, ct) }})
			continue
		}
		outs, back := vjpRule(e, in, act)
		for k, o := range outs {
			d.primal[e.Out[k]] = o
			d.active[e.Out[k]] = e.Out[k].Aval.DType.IsFloat()
		}
		d.tape = append(d.tape, tapeEntry{in: e.In, out: e.Out, back: back})
	}
}

// backward runs the tape in reverse, accumulating cotangents in ct.
func (d *vjp) backward(ct map[*ir.Var]Array) {
	for i := len(d.tape) - 1; i >= 0; i-- {
		te := d.tape[i]
		cts := make([]Array, len(te.out))
		any := false
		for k, v := range te.out {
			cts[k] = ct[v]
			any = any || cts[k].v != nil
		}
		if !any {
			continue
		}
		for k, g := range te.back(cts) {
			if v, ok := te.in[k].(*ir.Var); ok && g.v != nil && d.active[v] {
				accumulate(ct, v, g)
			}
		}
	}
}

// accumulate adds g to v's cotangent.
func accumulate(ct map[*ir.Var]Array, v *ir.Var, g Array) {
	g = convertTo(g, v.Aval.DType, v.Aval.Weak)
	if old, ok := ct[v]; ok {
		g = addAny(old, g)
	}
	ct[v] = g
}

// addAny stages add_any a b: the sum of two cotangents, as JAX prints it.
func addAny(a, b Array) Array { return bind(ir.AddAny, nil, []ir.Aval{a.val().aval}, a, b)[0] }

// unbroadcast sums a cotangent of the result's shape down to an operand's
// type (JAX's _unbroadcast): over every dimension of a scalar operand, or
// over the dimensions where a size-1 operand was broadcast.
func unbroadcast(g Array, to ir.Aval) Array {
	s := g.val().aval.Shape
	if equalInts(s, to.Shape) {
		return g
	}
	if len(to.Shape) == 0 {
		return g.Sum()
	}
	var dims []int
	for i := range s {
		if s[i] != to.Shape[i] {
			dims = append(dims, i)
		}
	}
	return g.Sum(dims...).Reshape(to.Shape...)
}

// zerosLike is an array of zeros of a's type.
func zerosLike(a ir.Aval) Array {
	return Full(0, a.DType, a.Shape...)
}

// instantiate replaces a zero (nil) cotangent by zeros of type a.
func instantiate(g Array, a ir.Aval) Array {
	if g.v != nil {
		return g
	}
	return zerosLike(a)
}
