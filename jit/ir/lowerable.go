package ir

import "slices"

// BroadcastSizeOne returns the shape that two shapes of equal rank
// broadcast to under lax's rule for binary operations: in each dimension the
// sizes are equal or one of them is 1. ok is false when the ranks differ or
// a dimension is incompatible.
func BroadcastSizeOne(a, b []int) (shape []int, ok bool) {
	if len(a) != len(b) {
		return nil, false
	}
	shape = make([]int, len(a))
	for i := range a {
		switch {
		case a[i] == b[i] || b[i] == 1:
			shape[i] = a[i]
		case a[i] == 1:
			shape[i] = b[i]
		default:
			return nil, false
		}
	}
	return shape, true
}

// Lowerable returns cj in the form the backends' kernels take, in cj and
// all its sub-jaxprs: every implicit size-1 broadcast of an elementwise
// binary equation (`add a:f32[1,3] b:f32[2,3]`, as JAX's lax ops allow) is
// made explicit by a broadcast_in_dim of the operand to the result's shape,
// stop_gradient equations (the identity when running) are dropped, their
// uses reading the operand, add_any is add, and custom_jvp_call equations are
// replaced by their bodies (see inlineCustomCalls). cj itself is not modified; it is returned as is
// when nothing changes.
func Lowerable(cj *ClosedJaxpr) *ClosedJaxpr {
	j := expandJaxpr(cj.Jaxpr, map[*Jaxpr]*Jaxpr{})
	if j == cj.Jaxpr {
		return cj
	}
	return &ClosedJaxpr{Jaxpr: j, Consts: cj.Consts, Name: cj.Name}
}

// expandJaxpr rewrites one jaxpr (memo keeps shared sub-jaxprs shared).
func expandJaxpr(j *Jaxpr, memo map[*Jaxpr]*Jaxpr) *Jaxpr {
	if r, ok := memo[j]; ok {
		return r
	}
	src := inlineCustomCalls(j)
	var eqns []*Eqn
	changed := src != j
	alias := map[*Var]Atom{} // results of dropped stop_gradients
	subst := func(a Atom) (Atom, bool) {
		if v, ok := a.(*Var); ok {
			if r, ok := alias[v]; ok {
				return r, true
			}
		}
		return a, false
	}
	for _, e := range src.Eqns {
		if e.Prim == StopGradient && len(e.In) == 1 && len(e.Out) == 1 {
			alias[e.Out[0]], _ = subst(e.In[0])
			changed = true
			continue
		}
		ne := expandParams(e, memo)
		if e.Prim == AddAny {
			ne = &Eqn{Prim: Add, Params: ne.Params, In: slices.Clone(e.In), Out: e.Out, Source: e.Source}
		}
		in := e.In
		for k, a := range in {
			if s, ok := subst(a); ok {
				if ne == e {
					ne = &Eqn{Prim: e.Prim, Params: e.Params, In: slices.Clone(e.In), Out: e.Out, Source: e.Source}
				}
				ne.In[k] = s
			}
		}
		if IsBinary(e.Prim) && len(e.Out) == 1 {
			out := e.Out[0].Aval.Shape
			for k, a := range ne.In {
				s := a.Type().Shape
				if len(s) == 0 || slices.Equal(s, out) {
					continue
				}
				if ne == e {
					ne = &Eqn{Prim: e.Prim, Params: e.Params, In: slices.Clone(e.In), Out: e.Out, Source: e.Source}
				}
				av := a.Type()
				v := NewVar(Aval{Shape: slices.Clone(out), DType: av.DType, Weak: av.Weak})
				dims := make([]int, len(s))
				for d := range dims {
					dims[d] = len(out) - len(s) + d
				}
				eqns = append(eqns, &Eqn{Prim: BroadcastInDim, In: []Atom{a}, Out: []*Var{v}, Source: e.Source,
					Params: Params{"shape": slices.Clone(out), "broadcast_dimensions": dims, "sharding": nil}})
				ne.In[k] = v
			}
		}
		changed = changed || ne != e
		eqns = append(eqns, ne)
	}
	r := j
	if changed {
		outs := make([]Atom, len(src.Outvars))
		for k, a := range src.Outvars {
			outs[k], _ = subst(a)
		}
		r = &Jaxpr{Constvars: j.Constvars, Invars: j.Invars, Eqns: eqns, Outvars: outs}
	}
	memo[j] = r
	return r
}

// expandParams rewrites the sub-jaxprs of e's parameters; e itself when
// none changes.
func expandParams(e *Eqn, memo map[*Jaxpr]*Jaxpr) *Eqn {
	var np Params
	set := func(k string, v any) {
		if np == nil {
			np = make(Params, len(e.Params))
			for k2, v2 := range e.Params {
				np[k2] = v2
			}
		}
		np[k] = v
	}
	sub := func(cj *ClosedJaxpr) *ClosedJaxpr {
		if j := expandJaxpr(cj.Jaxpr, memo); j != cj.Jaxpr {
			return &ClosedJaxpr{Jaxpr: j, Consts: cj.Consts, Name: cj.Name}
		}
		return cj
	}
	for k, v := range e.Params {
		switch v := v.(type) {
		case *ClosedJaxpr:
			if n := sub(v); n != v {
				set(k, n)
			}
		case []*ClosedJaxpr:
			bs := make([]*ClosedJaxpr, len(v))
			diff := false
			for i, b := range v {
				bs[i] = sub(b)
				diff = diff || bs[i] != b
			}
			if diff {
				set(k, bs)
			}
		}
	}
	if np == nil {
		return e
	}
	return &Eqn{Prim: e.Prim, Params: np, In: e.In, Out: e.Out, Source: e.Source}
}
