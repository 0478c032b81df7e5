package traced

import (
	"go/ast"
	"go/types"
)

// Return is a value that a function of this package returns.
type Return struct {
	// Func is the *ast.FuncDecl or *ast.FuncLit that returns it.
	Func ast.Node
	// Value is the returned expression.
	Value ast.Expr
}

// Returns returns the values that the functions of this package that call
// may run return as their result k, from their return statements. ok is
// false when no callee is known here or one of them has a bare return.
func (r *Result) Returns(call *ast.CallExpr, k int) (values []Return, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.returns(call, k)
}

// returns is Returns without the lock.
func (r *Result) returns(call *ast.CallExpr, k int) (values []Return, ok bool) {
	callees, _ := r.callees(call)
	ok = len(callees) > 0
	for _, c := range callees {
		ast.Inspect(FuncBody(c), func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // its returns are its own
			case *ast.ReturnStmt:
				if k < len(n.Results) {
					values = append(values, Return{c, n.Results[k]})
				} else {
					ok = false
				}
			}
			return true
		})
	}
	return values, ok
}

// Params returns the parameters of a *ast.FuncDecl or *ast.FuncLit in
// order (nil entries for unnamed ones).
func (r *Result) Params(fn ast.Node) []*types.Var {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return ParamVars(r.Info, fn.Type)
	case *ast.FuncLit:
		return ParamVars(r.Info, fn.Type)
	}
	return nil
}
