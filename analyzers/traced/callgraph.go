package traced

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The call graph: for each function of the package, the places that run
// it — calls that name it or call a value that holds it (a function
// passed as an argument, kept in a field or a map, returned by a factory,
// a method value, an interface method of a type whose values reach the
// receiver) — and the closures made of it. Each site carries its
// arguments (or a closure's bindings) as expressions of the caller, so
// that a question about a parameter can be asked of what the callers pass.

// callSite is a place that runs fn.
type callSite struct {
	caller *ssa.Function
	// atoms is the function whose atoms args are written in: the caller,
	// or, for a call through the caller's parameter (run(f.Call, 500, x)
	// calling fn(...)), the caller's caller that binds it.
	atoms *ssa.Function
	// instr is the call (or the MakeClosure of a closure: then frees).
	instr ssa.Instruction
	args  []*Expr
	frees []*Expr
	// jitted is set for a call of a jitted function (f.Call): the
	// wrapper made by the jit.Jit call Site.
	jitted *Expr
	// at is the call that sets the arguments (the outer call, for a call
	// through a parameter), for messages.
	at ssa.Instruction
}

// callSites returns the sites that run fn.
func (f *flow) callSites(fn *ssa.Function) []*callSite {
	switch {
	case f.callers == nil:
		f.buildCallers()
	case f.callersFrame >= 0:
		f.cut(f.callersFrame) // asked while it is built: what is known so far
	}
	return f.callers[fn]
}

// buildCallers indexes every call and closure of the package by the
// functions it can run: first the calls whose callee the caller knows
// itself, then those through a function-valued parameter or free
// variable, bound by each place that runs the caller.
func (f *flow) buildCallers() {
	f.callers = map[*ssa.Function][]*callSite{}
	f.callersFrame = f.open()
	defer func() {
		f.close(f.callersFrame, func() {})
		f.callersFrame = -1
	}()
	type pending struct {
		fn    *ssa.Function
		instr ssa.CallInstruction
		b     *ssa.BasicBlock
	}
	var later []pending
	for _, fn := range f.funcs {
		s := f.summary(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.MakeClosure:
					clo := x.Fn.(*ssa.Function)
					frees := make([]*Expr, len(x.Bindings))
					for i, v := range x.Bindings {
						frees[i] = s.operand(v, b)
					}
					f.callers[clo] = append(f.callers[clo], &callSite{caller: fn, atoms: fn, instr: x, frees: frees})
				case ssa.CallInstruction:
					c := x.Common()
					args := f.argsOf(s, c, b)
					for _, t := range f.targets(s, c, b) {
						f.addSite(fn, fn, instr, args, t)
					}
					if !c.IsInvoke() && c.StaticCallee() == nil && s.operand(c.Value, b).mentions(func(a *Expr) bool { return isAtomOf(a, fn) }) {
						later = append(later, pending{fn, x, b})
					}
				}
			}
		}
	}
	for _, p := range later {
		s := f.summary(p.fn)
		c := p.instr.Common()
		for _, up := range append([]*callSite(nil), f.callers[p.fn]...) {
			env := &Env{Fn: p.fn, Params: up.args, Frees: up.frees}
			callee := f.subst(s.operand(c.Value, p.b), env)
			args := f.argsOf(s, c, p.b)
			for i := range args {
				args[i] = f.subst(args[i], env)
			}
			for _, t := range f.valueTargets(callee) {
				f.addSite(p.fn, up.atoms, p.instr, args, t).at = up.instr
			}
		}
	}
}

// addSite records that instr in caller runs t.fn.
func (f *flow) addSite(caller, atoms *ssa.Function, instr ssa.Instruction, args []*Expr, t target) *callSite {
	cs := &callSite{caller: caller, atoms: atoms, instr: instr, args: t.args, frees: t.frees, jitted: t.jitted, at: instr}
	if cs.args == nil {
		cs.args = args
	}
	f.callers[t.fn] = append(f.callers[t.fn], cs)
	return cs
}

// target is a function a call can run, with the arguments it receives
// when they are not the call's own (a method called on a receiver, a
// function given to a jitted wrapper).
type target struct {
	fn     *ssa.Function
	args   []*Expr
	frees  []*Expr
	jitted *Expr
}

// targets returns the functions of the package a call can run, in the
// caller's own atoms.
func (f *flow) targets(s *summary, c *ssa.CallCommon, b *ssa.BasicBlock) []target {
	if c.IsInvoke() {
		var out []target
		for _, m := range f.invoked(c, s.operand(c.Value, b)) {
			if f.local(m.fn) {
				out = append(out, target{fn: m.fn, args: append([]*Expr{m.recv}, f.argsOf(s, c, b)...)})
			}
		}
		return out
	}
	if fn, ok := c.Value.(*ssa.Function); ok {
		if f.local(fn) {
			return []target{{fn: fn}}
		}
		return nil
	}
	return f.valueTargets(s.operand(c.Value, b))
}

// valueTargets are the functions of the package that calling the function
// value v can run.
func (f *flow) valueTargets(v *Expr) []target {
	var out []target
	for _, v := range alternatives(v) {
		switch {
		case v.Kind == kFunc && v.Name == "jit.Call":
			w := v.Args[0]
			for _, fv := range alternatives(w.Args[0]) {
				if fv.Kind == kFunc && fv.Fn != nil && f.local(fv.Fn) {
					t := target{fn: fv.Fn, jitted: w}
					if fv.Env != nil {
						t.frees = fv.Env.Frees
					}
					out = append(out, t)
				}
			}
		case v.Kind == kFunc && v.Fn != nil && f.local(v.Fn):
			t := target{fn: v.Fn}
			if v.Env != nil {
				t.frees = v.Env.Frees
			}
			out = append(out, t)
		}
	}
	return out
}

// argsOf is the arguments of a call in the caller's atoms.
func (f *flow) argsOf(s *summary, c *ssa.CallCommon, b *ssa.BasicBlock) []*Expr {
	out := make([]*Expr, len(c.Args))
	for i, a := range c.Args {
		out[i] = s.operand(a, b)
	}
	return out
}

// alternatives lists the values x may be.
func alternatives(x *Expr) []*Expr {
	switch x.Kind {
	case kChoice:
		var out []*Expr
		for _, a := range x.Args {
			out = append(out, alternatives(a)...)
		}
		return out
	case kSelect:
		return append(alternatives(x.Args[1]), alternatives(x.Args[2])...)
	case kIndex:
		if elems := elements(x.Args[0]); elems != nil {
			var out []*Expr
			for _, e := range elems {
				out = append(out, alternatives(e)...)
			}
			return out
		}
	case kField:
		// A field of one of several structs (the fn of a table's row at an
		// index the loop walks) is one of their fields.
		if inner := alternatives(x.Args[0]); len(inner) > 1 || inner[0] != x.Args[0] {
			var out []*Expr
			for _, a := range inner {
				out = append(out, alternatives(field(a, x.N))...)
			}
			return out
		}
	}
	return []*Expr{x}
}

// invoked are the methods that the interface call c on recv runs, with
// their receivers: of the dynamic types recv can have when they are known
// here, else of the package's types that can be it (implementations).
func (f *flow) invoked(c *ssa.CallCommon, recv *Expr) []implementation {
	var out []implementation
	known := false
	for _, r := range alternatives(recv) {
		if r.Kind != kIface {
			continue
		}
		known = true
		if fn := f.prog.LookupMethod(r.Type, c.Method.Pkg(), c.Method.Name()); fn != nil {
			out = append(out, implementation{fn: fn, recv: r.Args[0]})
		}
	}
	if !known {
		return f.implementations(c)
	}
	return out
}

// implementations are the methods that the interface call c can run when
// its receiver's dynamic type is not known here (a model a registry of
// another package returns): the method of each type that the package
// makes interface values of and that implements the receiver's interface
// (rapid type analysis, as golang.org/x/tools/go/callgraph/rta does for a
// whole program), each with the receiver it runs on: one of the values
// the package makes interface values of, of that type (an object that its
// factory makes, whose state its methods read and advance).
func (f *flow) implementations(c *ssa.CallCommon) []implementation {
	iface, ok := c.Value.Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if f.madeIfaces == nil {
		f.madeIfaces = []madeIface{}
		at := map[types.Type]int{}
		for _, fn := range f.funcs {
			s := f.summary(fn)
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					mi, ok := instr.(*ssa.MakeInterface)
					if !ok {
						continue
					}
					i, seen := at[mi.X.Type()]
					if !seen {
						i = len(f.madeIfaces)
						at[mi.X.Type()] = i
						f.madeIfaces = append(f.madeIfaces, madeIface{t: mi.X.Type()})
					}
					f.madeIfaces[i].vals = append(f.madeIfaces[i].vals, s.operand(mi.X, b))
				}
			}
		}
	}
	var out []implementation
	for _, m := range f.madeIfaces {
		if types.Implements(m.t, iface) {
			if fn := f.prog.LookupMethod(m.t, c.Method.Pkg(), c.Method.Name()); fn != nil && f.local(fn) {
				out = append(out, implementation{fn: fn, recv: choice(m.vals...)})
			}
		}
	}
	return out
}

// An implementation is a method an interface call can run, and the
// receiver it runs on.
type implementation struct {
	fn   *ssa.Function
	recv *Expr
}

// A madeIface is a type the package makes interface values of, and the
// values it makes them of.
type madeIface struct {
	t    types.Type
	vals []*Expr
}

// runsLocal reports whether the call of a function value, instr, runs
// functions of the package that the call graph knows (an option closure
// that a constructor applies, bound where the constructor is called).
func (f *flow) runsLocal(instr ssa.Instruction) bool {
	if f.localCalls != nil {
		return f.localCalls[instr]
	}
	f.callSites(nil) // builds the call graph, or cuts the question asked while it is built
	calls := map[ssa.Instruction]bool{}
	for _, sites := range f.callers {
		for _, cs := range sites {
			calls[cs.instr] = true
		}
	}
	if f.callersFrame < 0 {
		f.localCalls = calls // complete: kept
	}
	return calls[instr]
}
