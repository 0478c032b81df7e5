package traced

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Batched control flow: under jit.Vmap a value that depends on a mapped
// argument has one value per element of the batch, so a jit.Cond or
// jit.Switch on it runs every branch for every element (select_n picks),
// and a jit.WhileLoop whose carry holds it runs as long as its slowest
// element. Which control flow runs under Vmap, and on what, is asked of
// the contexts: the vmapped function, what it calls, and the functions
// that transformed functions called inside a trace reach.

// A Batched is a jit.Cond, Switch or WhileLoop that runs under jit.Vmap
// with a predicate (an index, a carry) that depends on mapped arguments.
type Batched struct {
	// Call is the Cond, Switch or WhileLoop call, Name its function.
	Call *ast.CallExpr
	Name string
	// On are the mapped parameters it depends on, by name.
	On []string
	// Vmap is the jit.Vmap call (nil when not known), Mapped the name of
	// the function it maps.
	Vmap   *ast.CallExpr
	Mapped string
}

// Batched returns the batched control flow of the package, in source order.
func (r *Result) Batched() []Batched {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Batched
	seen := map[token.Pos]bool{}
	predicate := map[string]int{"Cond": 0, "Switch": 0, "WhileLoop": 2} // the argument that decides
	r.jitCallsUnder([]string{"Vmap"}, func(c *Context, vm *Expr, name string, call ssa.CallInstruction, b *ssa.BasicBlock) {
		arg, ok := predicate[name]
		if !ok || arg >= len(call.Common().Args) {
			return
		}
		on := mappedInputs(c.value(call.Common().Args[arg], b))
		expr := r.callAt(call)
		if len(on) == 0 || expr == nil || seen[expr.Pos()] {
			return
		}
		seen[expr.Pos()] = true
		bt := Batched{Call: expr, Name: name, On: on, Mapped: transformedName(vm)}
		if site, ok := vm.Site.(ssa.CallInstruction); ok {
			bt.Vmap = r.callAt(site)
		}
		out = append(out, bt)
	})
	sortByPos(out, func(b Batched) token.Pos { return b.Call.Pos() })
	return out
}

// mappedInputs names the mapped inputs e depends on: through its values,
// not its shape or whether it is a tracer (those are the same for every
// element).
func mappedInputs(e *Expr) []string {
	var out []string
	seen := map[string]bool{}
	e.walk(func(a *Expr) bool {
		switch a.Kind {
		case kShape, kTracer:
			return false
		case kInput:
			if strings.Contains(a.Name, "mapped") && a.Fn != nil && a.N < len(a.Fn.Params) {
				if n := a.Fn.Params[a.N].Name(); !seen[n] {
					seen[n] = true
					out = append(out, n)
				}
			}
		}
		return true
	})
	return out
}

// transformedName names the function a jit.Vmap or Grad transforms.
func transformedName(t *Expr) string {
	for _, f := range alternatives(t.Args[0]) {
		if f.Kind == kFunc && f.Fn != nil {
			if f.Fn.Parent() != nil {
				return "the function literal"
			}
			return f.Fn.Name()
		}
	}
	return "the function"
}

// jitCallsUnder calls each with every call of a jit function (by name)
// in the live code of the contexts under one of the transformations
// names, and the innermost such transformation t.
func (r *Result) jitCallsUnder(names []string, each func(c *Context, t *Expr, name string, call ssa.CallInstruction, b *ssa.BasicBlock)) {
	for _, c := range r.contexts {
		t := c.under(names...)
		if t == nil {
			continue
		}
		for _, b := range c.Fn.Blocks {
			if !c.Live(b) {
				continue
			}
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok && call.Common().StaticCallee() != nil {
					each(c, t, jitName(call.Common().StaticCallee()), call, b)
				}
			}
		}
	}
}
