package traced

import (
	"go/constant"
	"go/types"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/ssa"
)

// What is traced: a value holds a tracer when it is an array that an
// operation staged while tracing (omnistaging: every jit operation in a
// trace is staged, also on concrete, captured or global arrays), or a
// non-static input of the trace, or part of one (the arrays of a pytree).
// Concrete arrays — made by jit.Scalar, FromSlice, or Full, Zeros and Ones
// without a shape, or captured from outside and read without an operation —
// are not.

// tracedness is whether e, a value of context c, holds a tracer, as a
// boolean expression (the Iter atoms of c's loops, and its callers', are
// bound by their environments).
func (f *flow) tracedness(e *Expr, c *Context) *Expr {
	return f.tracednessOf(e, c, nil, map[*Expr]bool{})
}

func (f *flow) tracednessOf(e *Expr, c *Context, env *Env, seen map[*Expr]bool) *Expr {
	if seen[e] {
		return unknown // a cycle through a loop's state
	}
	seen[e] = true
	defer delete(seen, e)
	tracedness := func(x *Expr) *Expr { return f.tracednessOf(x, c, env, seen) }
	switch e.Kind {
	case kIter:
		// A loop's state: what it starts as, or what the body makes of it.
		l := e.Loop
		l.sum.solve(l)
		if e.N >= 0 && e.N < len(l.init) {
			bind := func(x *Expr) *Expr {
				if env != nil && env.Fn == l.fn {
					return f.subst(x, env)
				}
				if e := c.envFor(l.fn); e != nil {
					return f.subst(x, e)
				}
				return x
			}
			return choice(tracedness(bind(l.init[e.N])), tracedness(bind(l.next[e.N])))
		}
	case kAtExit, kOver:
		return f.tracednessOf(e.Args[0], c, e.Env, seen)
	case kArray, kInput:
		if e.Tr != nil {
			return e.Tr
		}
	case kChoice:
		alts := make([]*Expr, len(e.Args))
		for i, a := range e.Args {
			alts[i] = tracedness(a)
		}
		return choice(alts...)
	case kSelect:
		return sel(e.Args[0], tracedness(e.Args[1]), tracedness(e.Args[2]))
	case kIface:
		return tracedness(e.Args[0])
	case kTracer:
		return tracedness(e.Args[0])
	}
	return unknown
}

// maybeTraced reports whether e, a value of context c, can hold a tracer.
func (f *flow) maybeTraced(e *Expr, c *Context) bool { return f.mayBeTrue(f.tracedness(e, c)) }

// mayBeTrue reports whether the condition c can be true: one of its
// alternatives can.
func (f *flow) mayBeTrue(c *Expr) bool {
	switch c.Kind {
	case kChoice:
		for _, a := range c.Args {
			if f.mayBeTrue(a) {
				return true
			}
		}
		return false
	case kSelect:
		return f.mayBeTrue(c.Args[1]) || f.mayBeTrue(c.Args[2])
	}
	for _, v := range f.values(c).vals {
		if v.Kind() == constant.Bool && constant.BoolVal(v) {
			return true
		}
	}
	return false
}

// pytree binds a parameter of type t of a traced root: arrays are inputs
// of the trace (traced unless static), the fields of a struct and the
// elements of a slice are bound one by one (a `jit:"static"` field is
// static), anything else is an input that holds no tracer. vals are the
// values the calls pass, one per call (sites), nil when not known.
func pytree(t types.Type, vals []*Expr, sites []any, fn *ssa.Function, n int, static bool, flags string, depth int) *Expr {
	leaf := func(tr *Expr, name string) *Expr {
		at := node(kInput)
		at.Fn, at.N, at.Tr, at.Name, at.Type = fn, n, tr, name+flags, t
		if known(vals) {
			at.Args, at.Sites = vals, sites
		}
		return at.sized()
	}
	project := func(p func(*Expr) *Expr) []*Expr {
		if vals == nil {
			return nil
		}
		out := make([]*Expr, len(vals))
		for i, v := range vals {
			out[i] = p(v)
		}
		return out
	}
	if static {
		return leaf(exprFalse, "static")
	}
	if jitapi.IsArray(t) {
		return leaf(exprTrue, "")
	}
	if st, isStruct := structOf(t); depth > 3 || !jitapi.ContainsArray(t) && !(isStruct && (depth > 0 || hasStaticField(st))) {
		if jitapi.ContainsArray(t) {
			return leaf(exprTrue, "")
		}
		if depth > 0 {
			return leaf(exprFalse, "value") // a Go value inside a pytree
		}
		return leaf(exprFalse, "nonstatic")
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		fields := make([]*Expr, u.NumFields())
		for i := range fields {
			fv := project(func(v *Expr) *Expr { return field(v, i) })
			fields[i] = pytree(u.Field(i).Type(), fv, sites, fn, n, jitapi.IsStaticTag(u.Tag(i)), flags, depth+1)
			if fields[i].Kind == kInput {
				fields[i].Name = "field " + fields[i].Name // a leaf below the parameter
			}
		}
		return node(kStruct, fields...)
	case *types.Pointer:
		return node(kPtr, pytree(u.Elem(), project(load), sites, fn, n, false, flags, depth+1)).withSite("value")
	case *types.Slice, *types.Array:
		var elem types.Type
		switch s := u.(type) {
		case *types.Slice:
			elem = s.Elem()
		case *types.Array:
			elem = s.Elem()
		}
		lenAt := pytree(types.Typ[types.Int], project(length), sites, fn, n, true, "", depth+1)
		lenAt.Name = "len" + flags
		s := seq(lenAt)
		s.Tr = pytree(elem, project(func(v *Expr) *Expr { return index(v, unknown) }), sites, fn, n, false, flags, depth+1)
		return s
	}
	return leaf(exprTrue, "")
}

// structOf is the struct that t is, or that t points to.
func structOf(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// hasStaticField reports whether a struct has a `jit:"static"` field.
func hasStaticField(st *types.Struct) bool {
	for i := range st.NumFields() {
		if jitapi.IsStaticTag(st.Tag(i)) {
			return true
		}
	}
	return false
}

// known reports whether every value of vals is known at all.
func known(vals []*Expr) bool {
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if v == nil || v.Kind == kUnknown {
			return false
		}
	}
	return true
}

// load is what a pointer value points to, without the memory of the
// package (for the values of a pytree's pointer).
func load(p *Expr) *Expr {
	if p.Kind == kPtr && p.Site == "value" {
		return p.Args[0]
	}
	return node(kLoad, p)
}
