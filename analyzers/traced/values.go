package traced

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Assigned returns the values that n gives to the variable v: its
// definition, the values assigned to it as a whole, and its var
// declaration's value.
func Assigned(info *types.Info, n ast.Node, v types.Object) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(n, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) != len(s.Rhs) {
				return true
			}
			for i, l := range s.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok || (info.Defs[id] != v && info.Uses[id] != v) {
					continue
				}
				if s.Tok == token.DEFINE || s.Tok == token.ASSIGN {
					out = append(out, s.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			for i, id := range s.Names {
				if info.Defs[id] == v && i < len(s.Values) {
					out = append(out, s.Values[i])
				}
			}
		}
		return true
	})
	return out
}

// EnclosingFunc returns the innermost function (declaration or literal) of
// a stack made by PathTo, or nil.
func EnclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}
