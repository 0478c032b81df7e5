package staticargs

import (
	"go/ast"

	"github.com/jitlint/jitlint/analyzers/traced"
)

// buildsTable reports whether a jit.Jit call in loop is fine: it builds a
// table of wrappers once (its result is stored in a map or slice element,
// or appended), or it jits a different function on each iteration (ranging
// over functions) rather than the same code again.
func buildsTable(r *traced.Result, j *traced.Jitted, stack []ast.Node, loop ast.Stmt) bool {
	if len(stack) > 0 {
		switch p := stack[len(stack)-1].(type) {
		case *ast.AssignStmt:
			for i, rhs := range p.Rhs {
				if rhs == ast.Expr(j.Call) && i < len(p.Lhs) {
					if _, ok := ast.Unparen(p.Lhs[i]).(*ast.IndexExpr); ok {
						return true
					}
				}
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok && id.Name == "append" {
				return true
			}
		}
	}
	if len(j.Call.Args) == 0 {
		return false
	}
	fn := ast.Unparen(j.Call.Args[0])
	if _, lit := fn.(*ast.FuncLit); lit {
		return false // the same code on every iteration
	}
	return traced.NewLoop(r.Info, loop).Varies(fn)
}
