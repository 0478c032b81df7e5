package traced

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Request handlers: a function that the package gives net/http to serve
// requests (passed to HandleFunc or Handle, converted to
// http.HandlerFunc, or the ServeHTTP method of a value made an
// http.Handler) runs once per request, as many times as the server gets
// requests. What it reads from the request is new on each run.

// findHandlers marks the functions the package gives net/http to serve
// requests.
func (f *flow) findHandlers() {
	f.handlers = map[*ssa.Function]bool{}
	mark := func(s *summary, v ssa.Value, b *ssa.BasicBlock) {
		for _, a := range alternatives(unwrapIface(s.operand(v, b))) {
			switch {
			case a.Kind == kFunc && a.Fn != nil && f.local(a.Fn):
				f.handlers[a.Fn] = true
				if m, ok := a.Fn.Object().(*types.Func); ok && a.Fn.Synthetic != "" {
					if mf := f.prog.FuncValue(m); mf != nil {
						f.handlers[mf] = true // the method of a method value
					}
				}
			case a.Kind == kIface:
				if m := f.prog.LookupMethod(a.Type, nil, "ServeHTTP"); m != nil && f.local(m) {
					f.handlers[m] = true
				}
			}
		}
	}
	for _, fn := range f.funcs {
		s := f.summary(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.ChangeType:
					if isHTTP(x.Type(), "HandlerFunc") {
						mark(s, x.X, b)
					}
				case *ssa.MakeInterface:
					if isHTTP(x.Type(), "Handler") {
						if m := f.prog.LookupMethod(x.X.Type(), nil, "ServeHTTP"); m != nil && f.local(m) {
							f.handlers[m] = true // a value made an http.Handler (httptest.NewServer(s))
						}
					}
				case *ssa.Call:
					callee := x.Common().StaticCallee()
					if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "net/http" || len(x.Common().Args) == 0 {
						continue
					}
					if name := callee.Name(); name == "HandleFunc" || name == "Handle" {
						mark(s, x.Common().Args[len(x.Common().Args)-1], b)
					}
				}
			}
		}
	}
}

// isHTTP reports whether t is the named type net/http.name.
func isHTTP(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == name
}

// servingHandler returns the request handler that runs fn once per
// request: fn itself, or a handler that calls it (through up to depth
// callers); nil if none.
func (f *flow) servingHandler(fn *ssa.Function, depth int) *ssa.Function {
	if f.handlers == nil {
		f.findHandlers()
	}
	if f.handlers[fn] {
		return fn
	}
	if depth == 0 {
		return nil
	}
	for _, cs := range f.callSites(fn) {
		if _, closure := cs.instr.(*ssa.MakeClosure); closure || cs.jitted != nil {
			continue
		}
		if h := f.servingHandler(cs.caller, depth-1); h != nil {
			return h
		}
	}
	return nil
}

// perRequest reports whether e is made of what fn's run reads anew (its
// parameters and the results of its calls, or of the calls of a function
// that runs on each request, such as a helper that decodes the body) and
// of nothing that outlives the request (a method's receiver, a free
// variable: a server's state, which may bound it).
func (f *flow) perRequest(e *Expr, fn *ssa.Function) bool {
	recv := fn.Signature.Recv() != nil
	anew, state := false, false
	e.walk(func(a *Expr) bool {
		switch {
		case a.Kind == kParam && a.Fn == fn:
			if recv && a.N == 0 {
				state = true
			} else {
				anew = true
			}
		case a.Kind == kFree:
			state = true
		case a.Kind == kFresh:
			instr, ok := a.Site.(ssa.Instruction)
			anew = anew || ok && (instr.Parent() == fn || f.servingHandler(instr.Parent(), maxUpDepth) != nil)
		}
		return !state
	})
	return anew && !state
}
