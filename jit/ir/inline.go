package ir

import "slices"

// inlineCustomCalls returns j with each custom_jvp_call equation replaced by
// the equations of its call_jaxpr on fresh variables, as JAX lowers
// custom_jvp_call (a backend has no use for the derivative rule), and the jit
// equations inside those bodies inlined too, so that the body of a library
// function such as jit.Relu fuses with its neighbours. A body with constvars
// stays a call, as a jit equation. It returns j itself when j has no
// custom_jvp_call.
func inlineCustomCalls(j *Jaxpr) *Jaxpr {
	if !slices.ContainsFunc(j.Eqns, func(e *Eqn) bool { return e.Prim == CustomJVPCall }) {
		return j
	}
	in := inliner{env: map[*Var]Atom{}}
	for _, e := range j.Eqns {
		in.add(e, false)
	}
	outs := make([]Atom, len(j.Outvars))
	for k, a := range j.Outvars {
		outs[k] = in.read(a)
	}
	return &Jaxpr{Constvars: j.Constvars, Invars: j.Invars, Eqns: in.eqns, Outvars: outs}
}

// inliner collects the equations of a jaxpr with calls inlined. env maps
// the variables of inlined bodies, and the results of inlined calls, to the
// atoms that stand for them.
type inliner struct {
	env  map[*Var]Atom
	eqns []*Eqn
}

func (in *inliner) read(a Atom) Atom {
	if v, ok := a.(*Var); ok {
		if r, ok := in.env[v]; ok {
			return r
		}
	}
	return a
}

// add appends e, inlining it when it is a custom_jvp_call or, inside an
// inlined body (inBody), a jit equation. The equations of an inlined body
// get fresh result variables, since one body can be inlined more than once.
func (in *inliner) add(e *Eqn, inBody bool) {
	args := make([]Atom, len(e.In))
	changed := inBody
	for k, a := range e.In {
		args[k] = a
		if v, ok := a.(*Var); ok {
			if r, ok := in.env[v]; ok {
				args[k], changed = r, true
			}
		}
	}
	if body := inlinable(e, inBody); body != nil {
		for k, v := range body.Invars {
			in.env[v] = args[k]
		}
		for _, be := range body.Eqns {
			in.add(be, true)
		}
		for k, v := range e.Out {
			in.env[v] = in.read(body.Outvars[k])
		}
		return
	}
	prim, params, out := e.Prim, e.Params, e.Out
	if prim == CustomJVPCall { // not inlinable: a plain call
		prim, params, changed = Jit, Params{"name": e.Params["name"], "jaxpr": e.Params["call_jaxpr"]}, true
	}
	if inBody {
		out = make([]*Var, len(e.Out))
		for k, v := range e.Out {
			out[k] = NewVar(v.Aval)
			in.env[v] = out[k]
		}
	}
	if changed {
		e = &Eqn{Prim: prim, Params: params, In: args, Out: out, Source: e.Source}
	}
	in.eqns = append(in.eqns, e)
}

// inlinable returns the body to inline for e: a custom_jvp_call's
// call_jaxpr, or inside an inlined body a jit equation's jaxpr, when it has
// no constvars and fits e's operands and results; nil otherwise.
func inlinable(e *Eqn, inBody bool) *Jaxpr {
	key := "call_jaxpr"
	switch {
	case e.Prim == CustomJVPCall:
	case e.Prim == Jit && inBody:
		key = "jaxpr"
	default:
		return nil
	}
	cj, ok := e.Params[key].(*ClosedJaxpr)
	if !ok || cj == nil || cj.Jaxpr == nil {
		return nil
	}
	j := cj.Jaxpr
	if len(j.Constvars) > 0 || len(j.Invars) != len(e.In) || len(j.Outvars) != len(e.Out) {
		return nil
	}
	return j
}
