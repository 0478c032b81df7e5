package traced

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A wrapper made by jit.Jit starts with an empty cache: a jit.Jit call that
// runs many times — in a loop, or in a function that runs many times — and
// whose wrapper is not kept compiles again each time.

// A RepeatedJit is a jit.Jit call that makes a new wrapper each time it
// runs, and runs many times.
type RepeatedJit struct {
	Call *ast.CallExpr
	// Loop is the loop of its function it runs in; when nil, its function
	// Func runs many times, as Why says ("called in a loop at a.go:12",
	// "called from 3 places").
	Loop      ast.Stmt
	Func, Why string
	// UsesLoop is set when the jitted function uses variables of the loop
	// (the call cannot move before it).
	UsesLoop bool
}

// RepeatedJits returns the jit.Jit calls of the package that make a new
// wrapper on every run of a code that runs many times.
func (r *Result) RepeatedJits() []RepeatedJit {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.flow
	var out []RepeatedJit
	for _, fn := range f.funcs {
		s := f.summary(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Common().StaticCallee() == nil || jitName(call.Common().StaticCallee()) != "Jit" || len(call.Common().Args) == 0 {
					continue
				}
				expr := r.callAt(call)
				if expr == nil || r.kept(call) {
					continue
				}
				fv := s.operand(call.Common().Args[0], b)
				if sharesCache(fv) || sharesCache(choice(f.resolveUp(fn, fv, maxUpDepth)...)) {
					continue // a named function (here, or what every caller passes): its wrappers share one cache
				}
				if r.traceFails(call) {
					continue // it never compiles: the conversion that fails is the finding
				}
				if rs := rangeFuncBody(fn); rs != nil && s.loopOf[b] == nil {
					// The body of a range over a function: the iterator runs it
					// once per element, as a loop's iteration.
					out = append(out, RepeatedJit{Call: expr, Loop: rs, UsesLoop: fv.mentions(func(a *Expr) bool { return a.Kind == kParam && a.Fn == fn })})
					continue
				}
				if l := s.loopOf[b]; l != nil {
					if r.differentCode(l, fv, call.Common().Args[0], s) {
						continue // a different function on each iteration
					}
					if r.calledInInnerLoops(s, call, l) {
						continue // one compile per iteration, for more than two calls each
					}
					out = append(out, RepeatedJit{Call: expr, Loop: l.Stmt, UsesLoop: varies(l, fv)})
					continue
				}
				if boundToLocal(call.Common().Args[0]) && !f.receiverIsParam(expr, fn) {
					continue // a method value of a receiver the function holds: one wrapper per receiver
				}
				if capturesRun(fn, fv) && !usedOnceInRun(s, call) && !r.returnedForOneUse(fn, call) {
					continue // a closure over the run's own variables, handed on: a new function each run
				}
				if why := r.runsMany(fn, b, fv); why != "" {
					out = append(out, RepeatedJit{Call: expr, Func: r.displayName(fn), Why: why})
				}
			}
		}
	}
	sortByPos(out, func(j RepeatedJit) token.Pos { return j.Call.Pos() })
	return out
}

// rangeFuncBody is the range statement whose body fn is, when fn is the
// yield function SSA makes of the body of a range over a function (nil
// otherwise).
func rangeFuncBody(fn *ssa.Function) *ast.RangeStmt {
	rs, _ := fn.Syntax().(*ast.RangeStmt)
	return rs
}

// traceFails reports whether every trace that the jit.Jit call makes
// fails: in each of its root contexts, every return of the function is
// after a conversion of a traced value that surely runs.
func (r *Result) traceFails(call ssa.CallInstruction) bool {
	found := false
	for _, c := range r.contexts {
		if c.Parent != nil || c.Root == nil || c.Root.Call != call {
			continue
		}
		found = true
		for _, b := range c.Fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && c.Live(b) && !r.failsBefore(c, ret) {
				return false
			}
		}
	}
	return found
}

// kept reports whether the wrapper a jit.Jit call makes is kept in a cache
// that outlives the run: stored into a map or slice element, appended, or
// stored into a package variable.
func (r *Result) kept(call *ssa.Call) bool {
	return r.keptValue(call, maxUpDepth)
}

// keptValue reports whether v is kept in a cache that outlives the run
// (see kept); a value the function returns is kept when every call of the
// function keeps what it returns (a compile helper whose wrappers the
// caller stores in a map), through up to depth callers.
func (r *Result) keptValue(v ssa.Value, depth int) bool {
	seen := map[ssa.Value]bool{}
	var flows func(v ssa.Value) bool
	flows = func(v ssa.Value) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		for _, ref := range *v.Referrers() {
			switch u := ref.(type) {
			case *ssa.MapUpdate:
				if u.Value == v {
					return true
				}
			case *ssa.Store:
				if u.Val != v {
					continue
				}
				switch a := addrRoot(u.Addr).(type) {
				case *ssa.Global:
					return true
				case *ssa.Alloc:
					if _, isElem := u.Addr.(*ssa.IndexAddr); isElem && a.Comment != "varargs" {
						return true
					}
					if a.Comment == "varargs" && appendedTo(a) {
						return true
					}
					if _, isField := u.Addr.(*ssa.FieldAddr); isField && slices.ContainsFunc(loadsOf(a), flows) {
						return true // a field of a struct that is kept
					}
				default:
					if _, isElem := u.Addr.(*ssa.IndexAddr); isElem {
						return true // an element of a slice: a table of wrappers
					}
				}
			case *ssa.Phi:
				if flows(u) {
					return true
				}
			case *ssa.Return:
				if depth > 0 && r.callersKeep(u, slices.Index(u.Results, v), depth-1) {
					return true
				}
			}
		}
		return false
	}
	return flows(v)
}

// callersKeep reports whether every call of ret's function keeps its i-th
// result.
func (r *Result) callersKeep(ret *ssa.Return, i int, depth int) bool {
	sites := r.flow.callSites(ret.Parent())
	if i < 0 || len(sites) == 0 {
		return false
	}
	for _, cs := range sites {
		call, ok := cs.instr.(*ssa.Call)
		if !ok || cs.atoms != cs.caller {
			return false
		}
		res := ssa.Value(call)
		if len(ret.Results) > 1 {
			res = nil
			for _, ref := range *call.Referrers() {
				if ex, ok := ref.(*ssa.Extract); ok && ex.Index == i {
					res = ex
				}
			}
		}
		if res == nil || !r.keptValue(res, depth) {
			return false
		}
	}
	return true
}

// loadsOf are the loads of the whole of a local allocation.
func loadsOf(a *ssa.Alloc) []ssa.Value {
	var out []ssa.Value
	for _, ref := range *a.Referrers() {
		if u, ok := ref.(*ssa.UnOp); ok && u.Op == token.MUL {
			out = append(out, u)
		}
	}
	return out
}

// appendedTo reports whether a varargs allocation is appended to a slice.
func appendedTo(a *ssa.Alloc) bool {
	c, ok := varargsCall(a).(*ssa.Call)
	if !ok {
		return false
	}
	_, _, isAppend := appendOf(c)
	return isAppend
}

// differentCode reports whether the function value fv (of the SSA value
// arg) is a different function (not the same code) from one iteration of
// l to the next: an entry of a table (a map, a slice) read at a key or an
// index the loop changes.
func (r *Result) differentCode(l *Loop, fv *Expr, arg ssa.Value, s *summary) bool {
	if !varies(l, fv) && !(tableRead(l, arg, s) && len(alternatives(fv)) > 1) {
		return false
	}
	fns := map[*ssa.Function]bool{}
	for _, a := range alternatives(fv) {
		if a.Kind == kFunc && a.Fn != nil {
			fns[a.Fn] = true
		} else {
			return true // not a known function: a table element, say
		}
	}
	return len(fns) > 1
}

// tableRead reports whether v is read from a map or a slice at a key or an
// index that changes over l.
func tableRead(l *Loop, v ssa.Value, s *summary) bool {
	switch x := v.(type) {
	case *ssa.Lookup:
		return varies(l, s.operand(x.Index, x.Block()))
	case *ssa.UnOp:
		if ia, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL {
			return varies(l, s.operand(ia.Index, ia.Block()))
		}
	case *ssa.MakeInterface:
		return tableRead(l, x.X, s)
	case *ssa.ChangeType:
		return tableRead(l, x.X, s)
	}
	return false
}

// sharesCache reports whether the function value fv is a named function
// or a method expression: the wrappers jit.Jit makes of it share one
// cache, found by its code (closures and method values, which bind a
// receiver, get their own).
func sharesCache(fv *Expr) bool {
	alts := alternatives(unwrapIface(fv))
	for _, a := range alts {
		if a.Kind != kFunc || a.Fn == nil || a.Fn.Parent() != nil || len(a.Fn.FreeVars) > 0 {
			return false
		}
	}
	return len(alts) > 0
}

// usedOnceInRun reports whether the wrapper that the jit.Jit call w makes
// is only called (or asked for its cache) in the run that makes it, and
// not in a loop there: not returned, stored or passed on, so that each run
// traces and compiles it for a call or two of its own.
func usedOnceInRun(s *summary, w *ssa.Call) bool {
	calls, _, other := wrapperUses(w)
	return !other && !slices.ContainsFunc(calls, func(c *ssa.FieldAddr) bool { return s.loopOf[c.Block()] != nil })
}

// returnedForOneUse reports whether fn returns the wrapper that the jit.Jit
// call w makes as its only result, and a call of fn in a loop calls what
// it returns in that iteration only (a builder's Build() whose scorer the
// caller calls and drops): each iteration is then one compile.
func (r *Result) returnedForOneUse(fn *ssa.Function, w *ssa.Call) bool {
	if fn.Signature.Results().Len() != 1 {
		return false
	}
	for _, ref := range *w.Referrers() {
		if _, ok := ref.(*ssa.Return); !ok {
			if _, dbg := ref.(*ssa.DebugRef); !dbg {
				return false
			}
		}
	}
	for _, cs := range r.flow.callSites(fn) {
		call, ok := cs.instr.(*ssa.Call)
		if !ok || cs.jitted != nil {
			continue
		}
		s := r.flow.summary(call.Parent())
		l := s.loopOf[call.Block()]
		calls, methods, other := wrapperUses(call)
		if l == nil || other || len(calls)+len(methods) == 0 {
			continue // not in a loop, kept or handed on, or never called
		}
		inner := func(b *ssa.BasicBlock) bool { return s.loopOf[b] != l }
		if !slices.ContainsFunc(calls, func(u *ssa.FieldAddr) bool { return inner(u.Block()) }) && !slices.ContainsFunc(methods, func(u *ssa.Call) bool { return inner(u.Block()) }) {
			return true
		}
	}
	return false
}

// calledInInnerLoops reports whether every call of the wrapper that the
// jit.Jit call in loop l makes runs in a loop inside l of more than two
// known trips: each iteration of l compiles once for several calls, fewer
// compiles than every other call (the oracle's rule for churn).
func (r *Result) calledInInnerLoops(s *summary, call *ssa.Call, l *Loop) bool {
	calls, _, other := wrapperUses(call)
	if other || len(calls) == 0 {
		return false
	}
	for _, fa := range calls {
		inner := s.loopOf[fa.Block()]
		if inner == nil || inner == l || !inner.within(l) {
			return false
		}
		if t, ok := r.flow.newEvaluator().trips(inner, nil); !ok || t <= 2 {
			return false
		}
	}
	return true
}

// wrapperUses sorts the uses of the wrapper that the jit.Jit call v makes
// (nil: a call in a go or defer statement, which keeps nothing):
// the reads of its Call field, the calls of its methods, and whether it is
// used in any other way (returned, stored, passed on).
func wrapperUses(v *ssa.Call) (calls []*ssa.FieldAddr, methods []*ssa.Call, other bool) {
	if v == nil || v.Referrers() == nil {
		return nil, nil, true
	}
	for _, ref := range *v.Referrers() {
		switch u := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			calls = append(calls, u)
		case *ssa.Call:
			if u.Call.StaticCallee() == nil || len(u.Call.Args) == 0 || u.Call.Args[0] != v {
				other = true // passed to a function: handed on
				continue
			}
			methods = append(methods, u)
		default:
			other = true
		}
	}
	return calls, methods, other
}

// capturesRun reports whether fv is a function literal that captures
// variables of fn (a factory's counter, a scale it was given), or a method
// value of a receiver that fn makes: a new function on each run.
func capturesRun(fn *ssa.Function, fv *Expr) bool {
	for _, a := range alternatives(fv) {
		if a.Kind != kFunc || a.Fn == nil {
			continue
		}
		if a.Fn.Parent() == fn && len(a.Fn.FreeVars) > 0 {
			return true
		}
		if len(a.Fn.FreeVars) > 0 && a.Env != nil && a.Fn.Parent() == nil {
			// A method value (a bound method): its receiver is what it captures.
			for _, v := range a.Env.Frees {
				for _, p := range pointers(v) {
					if made, ok := p.Site.(ssa.Instruction); ok && made.Parent() == fn {
						return true
					}
				}
			}
		}
	}
	return false
}

// onceFromTable reports whether the call cs in the loop l calls fn
// through a function value that changes over the loop and is fn in one
// entry of the table it reads (for _, s := range steps { s.run() }): fn
// runs once per run of the loop, not on every iteration.
func onceFromTable(l *Loop, fn *ssa.Function, cs *callSite, caller *summary) bool {
	call, ok := cs.instr.(ssa.CallInstruction)
	if !ok || call.Common().StaticCallee() != nil || call.Common().IsInvoke() || l.parent != nil {
		return false // a direct call, or a loop around the table's loop runs fn again
	}
	callee := caller.operand(call.Common().Value, call.Block())
	if !varies(l, callee) {
		return false
	}
	entries := map[*Expr]bool{} // the table's entries that are fn (a path merge lists them twice)
	for _, a := range alternatives(callee) {
		if a.Kind == kFunc && a.Fn == fn {
			entries[a] = true
		}
	}
	return len(entries) == 1
}

// boundToLocal reports whether v is a method value (x.M) whose receiver
// x is a value of the function itself — made or computed in its body, not
// a parameter, a package variable or an element of a table. Each receiver is a different
// function: a wrapper per receiver is what the code means, and hoisting
// the jit.Jit call out of the loop is not the fix (passing the receiver
// as an argument is); the language's own caching rule, one cache per
// named function, does not apply to bound methods.
func boundToLocal(v ssa.Value) bool {
	mc, ok := v.(*ssa.MakeClosure)
	if !ok || len(mc.Bindings) != 1 {
		return false
	}
	if fn, ok := mc.Fn.(*ssa.Function); !ok || fn.Synthetic == "" || fn.Object() == nil {
		return false
	}
	switch x := mc.Bindings[0].(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global, *ssa.Const:
		return false
	case *ssa.Lookup:
		return false // read from a map that outlives the run: the same receivers again
	case *ssa.UnOp:
		switch x.X.(type) {
		case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Global:
			return false // read from a table or an object that outlives the run
		}
	}
	_, isInstr := mc.Bindings[0].(ssa.Instruction)
	return isInstr
}

// receiverIsParam reports whether the jit.Jit call jit is of a method
// value (recv.M) whose receiver is a parameter variable of fn — the
// caller's value, also when fn assigns to it (m = m.step()) — rather than
// a variable fn declares, a receiver the run makes.
func (f *flow) receiverIsParam(jit *ast.CallExpr, fn *ssa.Function) bool {
	sel, ok := ast.Unparen(jit.Args[0]).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	obj := f.info.Uses[id]
	return obj != nil && slices.ContainsFunc(fn.Params, func(p *ssa.Parameter) bool { return p.Object() == obj })
}

// runsMany says why fn's block b runs many times: fn is called in a loop,
// or from several places that each surely reach b (a branch chosen by a
// parameter runs once per caller that chooses it; a caller whose choice is
// not known is not counted, nor are callers that jit different functions:
// each compiles its own once); "" when it does not.
func (r *Result) runsMany(fn *ssa.Function, b *ssa.BasicBlock, fv *Expr) string {
	f := r.flow
	if h := f.servingHandler(fn, maxUpDepth); h == fn {
		return fmt.Sprintf("%s serves HTTP requests (net/http runs it once per request)", r.displayName(fn))
	} else if h != nil {
		return fmt.Sprintf("it runs in an HTTP handler (%s), once per request", r.displayName(h))
	}
	perFunc := map[string]int{} // the places that jit each function
	most := 0
	for _, cs := range f.callSites(fn) {
		if _, closure := cs.instr.(*ssa.MakeClosure); closure || cs.jitted != nil || cs.atoms != cs.caller {
			continue
		}
		env := &Env{Fn: fn, Params: cs.args, Frees: cs.frees}
		at := f.subst(fv, env) // the function this call jits
		caller := f.summary(cs.caller)
		if l := caller.loopOf[cs.instr.Block()]; l != nil && !onceFromTable(l, fn, cs, caller) {
			if r.differentCode(l, at, nil, caller) {
				continue // a different function on each iteration
			}
			return fmt.Sprintf("%s is called in a loop at %s", fn.Name(), r.Where(cs.instr.Pos()))
		}
		c := &Context{Fn: fn, Env: env, flow: f}
		if c.Live(b) && c.surely(b) {
			k := at.String()
			perFunc[k]++
			most = max(most, perFunc[k])
		}
	}
	if most > 1 {
		return fmt.Sprintf("%s is called from %d places", fn.Name(), most)
	}
	return r.callerRunsMany(fn, b, maxUpDepth)
}

// callerRunsMany says why fn's block b runs many times because the one
// function that calls fn does, through up to depth callers (a command
// handler that a dispatcher calls, and main calls the dispatcher in a
// loop); "" when that is not known. b must run on every call of fn; each
// caller's call of the next need only be live (a dispatcher's call of the
// handler it looked up).
func (r *Result) callerRunsMany(fn *ssa.Function, b *ssa.BasicBlock, depth int) string {
	f := r.flow
	sites := f.callSites(fn)
	if depth == 0 || len(sites) != 1 {
		return ""
	}
	cs := sites[0]
	if _, closure := cs.instr.(*ssa.MakeClosure); closure || cs.jitted != nil || cs.atoms != cs.caller || cs.caller == fn {
		return ""
	}
	if c := (&Context{Fn: fn, Env: &Env{Fn: fn, Params: cs.args, Frees: cs.frees}, flow: f}); !c.Live(b) || depth == maxUpDepth && !c.surely(b) {
		return "" // fn's own block on every call; the callers' calls only live (a dispatcher's call of the handler it looked up)
	}
	caller := f.summary(cs.caller)
	if l := caller.loopOf[cs.instr.Block()]; l != nil {
		if depth == maxUpDepth || onceFromTable(l, fn, cs, caller) {
			return "" // runsMany's own question, or one entry of a table run once
		}
		return fmt.Sprintf("%s is called by %s, in a loop at %s", fn.Name(), cs.caller.Name(), r.Where(cs.instr.Pos()))
	}
	if why := r.callerRunsMany(cs.caller, cs.instr.Block(), depth-1); why != "" {
		return fmt.Sprintf("%s is called by %s, and %s", fn.Name(), cs.caller.Name(), why)
	}
	return ""
}
