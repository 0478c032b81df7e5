package jit

import (
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// trace records the equations staged while one function is being traced.
// Traces nest (a Cond branch is traced inside the function that calls Cond);
// each goroutine has its own stack of active traces, and every operation is
// staged into the innermost one (JAX's "omnistaging"): values of outer
// traces and concrete arrays it reads are captured as constants.
type trace struct {
	parent *trace
	fnName string // the traced function, for messages
	kind   string // "jit", "cond", "scan", "while", "make_jaxpr"

	invars   []*ir.Var
	argNames []string // one per invar, for messages ("x", "params.W")
	eqns     []*ir.Eqn

	constvars []*ir.Var
	constSrc  []*value // what each constvar stands for: concrete data or an outer tracer
	captured  map[*value]*ir.Var

	stack *traceStack // the goroutine's stack this trace is on
	done  bool
}

// newArg adds an input of type a named name and returns its tracer.
func (t *trace) newArg(a ir.Aval, name string) Array {
	v := ir.NewVar(a)
	t.invars = append(t.invars, v)
	t.argNames = append(t.argNames, name)
	return Array{&value{aval: a, t: t, v: v}}
}

// isAncestor reports whether o is t or encloses t.
func (t *trace) isAncestor(o *trace) bool {
	for p := t; p != nil; p = p.parent {
		if p == o {
			return true
		}
	}
	return false
}

// atom returns the operand that stands for v inside t: its variable, a
// literal for a concrete scalar, or a captured constant.
func (t *trace) atom(v *value) ir.Atom {
	switch {
	case v.t == t:
		return v.v
	case v.buf != nil && len(v.aval.Shape) == 0:
		return ir.Literal{Value: v.buf.At(0), Aval: v.aval}
	case v.t != nil && (v.t.done || !t.isAncestor(v.t)):
		throw(LeakedTracer, "a traced value of %s (%s) escaped the trace of %s and was used outside it; "+
			"return values from traced functions instead of storing them in variables", v.t.fnName, v.aval, v.t.fnName)
	}
	if cv, ok := t.captured[v]; ok {
		return cv
	}
	cv := ir.NewVar(v.aval)
	t.captured[v] = cv
	t.constvars = append(t.constvars, cv)
	t.constSrc = append(t.constSrc, v)
	return cv
}

// jaxpr closes the trace with the given outputs.
func (t *trace) jaxpr(outs []Array) *ir.Jaxpr {
	outvars := make([]ir.Atom, len(outs))
	for i, o := range outs {
		outvars[i] = t.atom(o.val())
	}
	return &ir.Jaxpr{Constvars: t.constvars, Invars: t.invars, Eqns: t.eqns, Outvars: outvars}
}

// bind applies a primitive: staged into the current trace when there is one,
// evaluated at once on concrete data otherwise. outs are the result types.
func bind(prim string, params ir.Params, outs []ir.Aval, args ...Array) []Array {
	t := traceOf(args)
	if t == nil {
		return evalEager(prim, params, outs, args)
	}
	in := make([]ir.Atom, len(args))
	for i, a := range args {
		in[i] = t.atom(a.val())
	}
	eqn := &ir.Eqn{Prim: prim, Params: params, In: in, Out: make([]*ir.Var, len(outs)), Source: userSite()}
	res := make([]Array, len(outs))
	for i, o := range outs {
		v := ir.NewVar(o)
		eqn.Out[i] = v
		res[i] = Array{&value{aval: o, t: t, v: v}}
	}
	t.eqns = append(t.eqns, eqn)
	return res
}

// evalEager runs one primitive on concrete arrays.
func evalEager(prim string, params ir.Params, outs []ir.Aval, args []Array) []Array {
	bufs := make([]*ir.Buffer, len(args))
	for i, a := range args {
		v := a.val()
		if v.t != nil {
			throw(LeakedTracer, "a traced value of %s (%s) was used after its trace ended; "+
				"return values from traced functions instead of storing them in variables", v.t.fnName, v.aval)
		}
		bufs[i] = v.buf
	}
	res, err := eval.Apply(prim, params, bufs)
	if err != nil {
		throw(BackendFailure, "%v", err)
	}
	out := make([]Array, len(res))
	for i, b := range res {
		a := b.Aval()
		if i < len(outs) {
			a.Weak = outs[i].Weak
		}
		out[i] = Array{&value{aval: a, buf: b}}
	}
	return out
}
