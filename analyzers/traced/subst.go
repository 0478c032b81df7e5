package traced

import (
	"golang.org/x/tools/go/ssa"
)

// An Env binds the atoms of one function: what its parameters, free
// variables and mode are at a call (or where a closure or pointer was
// made), in terms of the caller's atoms. A nil entry leaves that atom
// unbound.
type Env struct {
	Fn     *ssa.Function
	Params []*Expr
	Frees  []*Expr
	Mode   *Expr
}

// owner returns the function whose atoms a Ptr, AtExit or Over node's Env
// binds.
func (e *Expr) owner() *ssa.Function {
	switch e.Kind {
	case kPtr:
		switch b := e.Site.(type) {
		case ssa.Instruction:
			return b.Parent()
		}
	case kAtExit, kOver:
		return e.Loop.fn
	}
	return nil
}

// subst replaces the atoms of env.Fn in e by their bindings and simplifies
// what that makes known (a call of a bound function value, a load through
// a bound pointer). Nodes are rebuilt only where something changed.
func (f *flow) subst(e *Expr, env *Env) *Expr {
	if e == nil || env == nil {
		return e
	}
	return (&substituter{f: f, env: env, memo: map[*Expr]*Expr{}}).do(e)
}

// substIters is e with the Iter atoms of loops that iters names replaced
// by their values there (a state at a given iteration, after one more).
func (f *flow) substIters(e *Expr, iters map[atomKey]*Expr) *Expr {
	return (&substituter{f: f, env: &Env{}, memo: map[*Expr]*Expr{}, iters: iters}).do(e)
}

type substituter struct {
	f    *flow
	env  *Env
	memo map[*Expr]*Expr
	// freshFn and freshSite: a fresh value of freshFn (or of a call in
	// it) is, seen from the caller, a fresh value of the call freshSite.
	freshFn   *ssa.Function
	freshSite any
	// iters interprets the Iter atoms of a loop (see the queries).
	iters map[atomKey]*Expr
	// fields interprets fields of a loop's state, each as a whole (kept.go).
	fields map[atomKey]*Expr
	// lambda are the arguments of a call of a closure described by its
	// result (see lambdaName).
	lambda []*Expr
	// nesting is how deep do is in e.
	nesting int
}

// maxNesting bounds how deep a substitution goes into one expression: far
// beyond maxDepth, which bounds expressions as they are built, so that a
// structure whose parts are not all counted there (one that refers to
// itself through memory) still ends.
const maxNesting = 20 * maxDepth

func (s *substituter) do(e *Expr) *Expr {
	if e == nil {
		return nil
	}
	if out, ok := s.memo[e]; ok {
		return out
	}
	if s.nesting > maxNesting {
		return unknown
	}
	s.nesting++
	out := s.rebuild(e)
	s.nesting--
	s.memo[e] = out
	return out
}

func (s *substituter) rebuild(e *Expr) *Expr {
	env := s.env
	switch e.Kind {
	case kUnknown, kConst:
		return e
	case kIter:
		if b, ok := s.iters[keyOf(e)]; ok {
			return b
		}
		return e
	case kFresh:
		if s.freshFn != nil {
			if instr, ok := e.Site.(ssa.Instruction); ok && instr.Parent() == s.freshFn && e.Site != s.freshSite {
				return fresh(s.freshSite)
			}
		}
		return e
	case kParam:
		if e.Fn == env.Fn && e.N >= 0 && e.N < len(env.Params) && env.Params[e.N] != nil {
			return env.Params[e.N]
		}
		if i := -1 - e.N; e.Fn == env.Fn && i >= 0 && i < len(s.lambda) {
			return s.lambda[i] // a parameter of a closure described by its result
		}
		return e
	case kFree:
		if e.Fn == env.Fn && e.N < len(env.Frees) && env.Frees[e.N] != nil {
			return env.Frees[e.N]
		}
		return e
	case kMode:
		if e.Fn == env.Fn && env.Mode != nil {
			return env.Mode
		}
		return e
	}
	if e.Kind == kField && s.fields != nil {
		if b, ok := s.fields[keyOf(e)]; ok {
			return b
		}
	}
	if e.Kind == kLen && e.Args[0].Kind == kIter && s.iters != nil {
		if b, ok := s.iters[lenKey(e.Args[0].Loop, e.Args[0].N)]; ok {
			return b
		}
	}
	args, changed := s.args(e.Args)
	if e.Kind == kArray && e.Dims != nil {
		// Dims that do not come from the operands (an array that another
		// package's function returns, of its parameters' sizes) are bound
		// too.
		if dims, ok := s.args(e.Dims); ok {
			withDims := *e
			withDims.Dims = dims
			e, changed = &withDims, true
		}
	}
	var tr *Expr
	if e.Tr != nil {
		tr = s.do(e.Tr)
		changed = changed || tr != e.Tr
	}
	var nenv *Env
	switch {
	case e.Env != nil:
		nenv = s.env2(e.Env)
		changed = changed || nenv != e.Env
	case (e.Kind == kPtr || e.Kind == kAtExit || e.Kind == kOver) && e.owner() == env.Fn:
		nenv, changed = env, true
	}
	site := e.Site
	if p, ok := e.Site.(*Expr); ok {
		site = s.do(p)
		changed = changed || site != e.Site
	}
	if !changed {
		return e
	}
	out := s.f.remake(e, args, tr, nenv, site)
	if e.Kind == kApply && s.freshFn != nil && out != e {
		// A call bound now ran its callee, whose fresh values belong to
		// the call in freshFn (the kApply's site): seen from here, they are
		// fresh values of freshSite too.
		out = retagFresh(out, s.freshFn, s.freshSite, map[*Expr]*Expr{})
	}
	return out
}

// retagFresh rebuilds e with the fresh values of fn's instructions made
// fresh values of site, changing nothing else (calls are not run again).
func retagFresh(e *Expr, fn *ssa.Function, site any, memo map[*Expr]*Expr) *Expr {
	return retagFreshIf(e, func(instr ssa.Instruction) bool { return instr.Parent() == fn }, site, memo)
}

// retagFreshIf rebuilds e with the fresh values of the instructions for
// which of holds made fresh values of site, changing nothing else.
func retagFreshIf(e *Expr, of func(ssa.Instruction) bool, site any, memo map[*Expr]*Expr) *Expr {
	if e == nil {
		return nil
	}
	if out, ok := memo[e]; ok {
		return out
	}
	out := e
	if e.Kind == kFresh {
		if instr, ok := e.Site.(ssa.Instruction); ok && of(instr) && e.Site != site {
			out = fresh(site)
		}
		memo[e] = out
		return out
	}
	var args []*Expr
	for i, a := range e.Args {
		b := retagFreshIf(a, of, site, memo)
		if b != a && args == nil {
			args = append([]*Expr(nil), e.Args...)
		}
		if args != nil {
			args[i] = b
		}
	}
	tr := retagFreshIf(e.Tr, of, site, memo)
	if args != nil || tr != e.Tr {
		cp := *e
		if args != nil {
			cp.Args = args
		}
		cp.Tr = tr
		out = cp.sized()
	}
	memo[e] = out
	return out
}

func (s *substituter) args(in []*Expr) ([]*Expr, bool) {
	var out []*Expr
	for i, a := range in {
		b := s.do(a)
		if b != a && out == nil {
			out = make([]*Expr, len(in))
			copy(out, in[:i])
		}
		if out != nil {
			out[i] = b
		}
	}
	if out == nil {
		return in, false
	}
	return out, true
}

func (s *substituter) env2(in *Env) *Env {
	params, c1 := s.args(in.Params)
	frees, c2 := s.args(in.Frees)
	mode := s.do(in.Mode)
	if !c1 && !c2 && mode == in.Mode {
		return in
	}
	return &Env{Fn: in.Fn, Params: params, Frees: frees, Mode: mode}
}

// remake rebuilds e with new operands, through the constructors that
// simplify.
func (f *flow) remake(e *Expr, args []*Expr, tr *Expr, env *Env, site any) *Expr {
	switch e.Kind {
	case kInput:
		out := *e
		out.Args = args
		return out.sized()
	case kOp:
		if len(args) == 1 {
			return op(e.Op, args[0], nil)
		}
		return op(e.Op, args[0], args[1])
	case kConv:
		return conv(args[0], e.Type)
	case kPure:
		out := pure(e.Name, args)
		if out.Kind == kPure && e.Site != nil {
			cp := *out
			cp.Site = e.Site
			return &cp
		}
		return out
	case kSelect:
		return sel(args[0], args[1], args[2])
	case kChoice:
		return choice(args...)
	case kField:
		return field(args[0], e.N)
	case kIndex:
		return index(args[0], args[1])
	case kLen:
		return length(args[0])
	case kLoad:
		return f.load(args[0])
	case kApply:
		res := f.apply(args[0], args[1:], tr, e.Site)
		if e.N >= 0 {
			return extract(res, e.N)
		}
		return res
	case kArray:
		return f.remakeArray(e, args, tr)
	case kShape:
		return shapeOf(args[0])
	case kTracer:
		return tracerOf(args[0])
	case kPtr:
		switch e.Name {
		case "field":
			k, _ := args[1].int64Of()
			return f.fieldAddr(args[0], int(k))
		case "elem":
			return elemAddr(args[0], args[1])
		}
	case kFunc:
		if e.Name == "" && e.Fn == nil && e.Site != nil && len(args) == 1 {
			// An interface method of a receiver now known: keep it a method.
			out := *e
			out.Args = args
			return out.sized()
		}
	}
	out := *e
	out.Args, out.Tr, out.Env, out.Site = args, tr, env, site
	return out.sized()
}
