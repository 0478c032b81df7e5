package traced

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// A Conversion is a host conversion (Bool, Item, Int, Float32s, ...) of a
// traced value: the trace fails there.
type Conversion struct {
	// Call is the conversion, Recv the converted value, GoType the Go
	// type it gives.
	Call   *ast.CallExpr
	Recv   ast.Expr
	GoType string
	// Related points at what made the code traced.
	Related []analysis.RelatedInformation
	// Callee and Problem are set for a call of another package's function
	// that converts the traced value it receives (from its fact).
	Callee  *types.Func
	Problem *Problem
}

// Conversions returns the host conversions of traced values of the
// package, in source order, each once.
func (r *Result) Conversions() []Conversion {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Conversion
	seen := map[token.Pos]bool{}
	for _, c := range r.contexts {
		for _, cv := range r.conversionsIn(c) {
			key := cv.Call.Pos()
			if cv.Problem != nil {
				key += token.Pos(len(cv.Problem.Pos)) // several problems of one callee
			}
			if !seen[key] {
				seen[key] = true
				out = append(out, cv)
			}
		}
	}
	for _, root := range r.flow.externalRoots {
		for _, p := range r.rootProblems(root, "conversion") {
			out = append(out, Conversion{Call: r.callAt(root.Call), Callee: root.Fn.Object().(*types.Func), Problem: p})
		}
	}
	sortByPos(out, func(c Conversion) token.Pos { return c.Call.Pos() })
	return out
}

// rootProblems are the problems of kind that another package's function
// traced by root has for the arguments the trace makes traced (its
// non-static arrays).
func (r *Result) rootProblems(root *Root, kind string) []*Problem {
	fact := r.flow.funcFact(root.Fn)
	if fact == nil || r.callAt(root.Call) == nil {
		return nil
	}
	var out []*Problem
	params := root.Fn.Signature.Params()
	for i := range fact.Problems {
		p := &fact.Problems[i]
		if p.Kind != kind {
			continue
		}
		if p.Param >= 0 && (p.Param >= params.Len() || containsInt(root.Static, p.Param) || !jitapi.ContainsArray(params.At(p.Param).Type())) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// conversionsIn returns the conversions of traced values in context c.
func (r *Result) conversionsIn(c *Context) []Conversion {
	var out []Conversion
	f := r.flow
	for _, b := range c.Fn.Blocks {
		if !c.Live(b) {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if cv, ok := r.conversionAt(c, call, b); ok {
				out = append(out, cv)
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil || f.local(callee) {
				continue
			}
			fact := f.funcFact(callee)
			if fact == nil {
				continue
			}
			ast := r.callAt(call)
			if ast == nil {
				continue
			}
			for i := range fact.Problems {
				p := &fact.Problems[i]
				if p.Kind != "conversion" || !r.argTraced(c, call, b, p.Param) {
					continue
				}
				out = append(out, Conversion{Call: ast, Callee: callee.Object().(*types.Func), Problem: p, Related: r.related(c)})
			}
		}
	}
	return out
}

// conversionAt reports whether call is a host conversion of a traced value.
func (r *Result) conversionAt(c *Context, call ssa.CallInstruction, b *ssa.BasicBlock) (Conversion, bool) {
	callee := call.Common().StaticCallee()
	if callee == nil {
		return Conversion{}, false
	}
	m, ok := arrayMethod(jitName(callee))
	if !ok || jitapi.HostConversionType(m) == "" || len(call.Common().Args) == 0 {
		return Conversion{}, false
	}
	if !r.flow.maybeTraced(c.value(call.Common().Args[0], b), c) {
		return Conversion{}, false
	}
	expr := r.callAt(call)
	if expr == nil {
		return Conversion{}, false
	}
	var recv ast.Expr
	if sel, ok := ast.Unparen(expr.Fun).(*ast.SelectorExpr); ok {
		recv = sel.X
	}
	return Conversion{Call: expr, Recv: recv, GoType: jitapi.HostConversionType(m), Related: r.related(c)}, true
}

// argTraced reports whether argument i of call holds a tracer in c (any
// argument, for i < 0).
func (r *Result) argTraced(c *Context, call ssa.CallInstruction, b *ssa.BasicBlock, i int) bool {
	args := call.Common().Args
	if i < 0 {
		return true
	}
	if i >= len(args) {
		return false
	}
	return r.flow.maybeTraced(c.value(args[i], b), c)
}

// failsBefore reports whether the trace of c fails before instr runs: a
// conversion of a traced value dominates it (in c, or before the call that
// made c, in its parents).
func (r *Result) failsBefore(c *Context, instr ssa.Instruction) bool {
	for ; c != nil; c, instr = c.Parent, c.Call {
		if instr == nil {
			return false
		}
		for _, b := range c.Fn.Blocks {
			if !c.Live(b) || !b.Dominates(instr.Block()) {
				continue
			}
			for _, x := range b.Instrs {
				if b == instr.Block() && x == instr {
					break
				}
				if call, ok := x.(ssa.CallInstruction); ok {
					if _, fails := r.conversionAt(c, call, b); fails {
						return true
					}
				}
			}
		}
	}
	return false
}

// summaryContexts are the contexts of an exported function called from
// traced code with its parameter i traced (the others not), and those
// below it.
func (r *Result) summaryContexts(fn *ssa.Function, i int) []*Context {
	env := &Env{Fn: fn, Params: make([]*Expr, len(fn.Params)), Mode: exprTrue}
	for k, p := range fn.Params {
		env.Params[k] = pytree(p.Type(), nil, nil, fn, k, k != i, "", 0)
	}
	root := &Context{Fn: fn, Env: env, Root: &Root{Fn: fn}, flow: r.flow}
	return r.flow.below(root)
}

// problemsOf summarises what goes wrong when traced code calls fn.
func (r *Result) problemsOf(fn *ssa.Function) []Problem {
	var out []Problem
	seen := map[string]bool{}
	add := func(p Problem) {
		key := p.Kind + p.Pos + p.Message
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	traced := []int{-1} // no argument traced: what any call from a trace does
	for i, p := range fn.Params {
		if jitapi.ContainsArray(p.Type()) {
			traced = append(traced, i)
		}
	}
	for _, i := range traced {
		for _, c := range r.summaryContexts(fn, i) {
			for _, cv := range r.conversionsIn(c) {
				if i < 0 {
					continue // a conversion needs a traced value
				}
				if cv.Problem != nil {
					add(Problem{Kind: "conversion", Param: i, Pos: cv.Problem.Pos, Message: cv.Problem.Message})
					continue
				}
				add(Problem{Kind: "conversion", Param: i, Pos: r.Where(cv.Call.Pos()), Message: ConversionMessage(types.ExprString(cv.Call), cv.GoType)})
			}
			for _, e := range r.effectsIn(c) {
				if e.Problem != nil {
					add(Problem{Kind: "effect", Param: e.param, Pos: e.Problem.Pos, Message: e.Problem.Message, Detail: e.Problem.Detail})
					continue
				}
				add(Problem{Kind: "effect", Param: e.param, Pos: r.Where(e.Pos), Message: EffectMessage(e), Detail: e.written()})
			}
		}
	}
	return out
}

// ConversionMessage explains one host conversion.
func ConversionMessage(expr, goType string) string {
	if goType == "bool" {
		return expr + " converts a traced value to a Go bool; tracing will fail with TracerBoolConversionError. " +
			"Use jit.Where for an elementwise choice or jit.Cond for a branch"
	}
	return expr + " converts a traced value to a Go " + goType + "; tracing will fail with ConcretizationTypeError. " +
		"Keep the value an Array and compute with jit ops, or make the argument static with jit.StaticArgnums"
}
