package traceeffect

import (
	"go/ast"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/types/typeutil"
)

// onceFiredEagerly reports whether lit is the function given to
// once.Do(lit) for a sync.Once that main fires eagerly before its first
// jitted call (setup() calling loadScales() first): the body then never
// runs in a trace, so its effects are not reported. A Once first fired
// inside a trace runs its body while tracing, and is.
func onceFiredEagerly(r *traced.Result, lit *ast.FuncLit, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	call, ok := stack[len(stack)-1].(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Args[0] != ast.Expr(lit) {
		return false
	}
	do, ok := typeutil.Callee(r.Info, call).(*types.Func)
	if !ok || do.Name() != "Do" || do.Pkg() == nil || do.Pkg().Path() != "sync" {
		return false
	}
	encl, ok := traced.EnclosingFunc(stack).(*ast.FuncDecl)
	return ok && runsBeforeFirstJitCall(r, encl, 0)
}

// runsBeforeFirstJitCall reports whether main calls fd (directly, or
// through functions that are not traced) before its first call of a
// jitted function.
func runsBeforeFirstJitCall(r *traced.Result, fd *ast.FuncDecl, depth int) bool {
	if depth > 3 {
		return false
	}
	obj := r.Info.Defs[fd.Name]
	before := false
	for _, f := range r.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || before || typeutil.Callee(r.Info, call) != obj {
				return !before
			}
			caller, ok := traced.EnclosingFunc(r.PathTo(call)).(*ast.FuncDecl)
			switch {
			case !ok || r.FuncOf(caller) != nil:
			case caller.Name.Name == "main" && caller.Recv == nil && r.Files[0].Name.Name == "main":
				first := firstJitCall(r, caller)
				before = first == nil || call.Pos() < first.Pos()
			default:
				before = runsBeforeFirstJitCall(r, caller, depth+1)
			}
			return !before
		})
	}
	return before
}

// firstJitCall returns the first call of a jitted function (f.Call) in
// fd's body, or nil.
func firstJitCall(r *traced.Result, fd *ast.FuncDecl) *ast.CallExpr {
	var first *ast.CallExpr
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && first == nil {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Call" && traced.IsFunc(r.Info.TypeOf(sel.X)) {
				first = call
			}
		}
		return first == nil
	})
	return first
}
