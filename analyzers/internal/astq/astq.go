// Package astq holds the syntax helpers of the jitlint analyzers' fixes
// and messages: paths to nodes, enclosing functions and loops, and the
// name a file imports jit under.
package astq

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// PathTo returns the nodes of file that enclose n, outermost first (n
// excluded).
func PathTo(file *ast.File, n ast.Node) []ast.Node {
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, n.Pos(), n.End())
	var stack []ast.Node
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] != n {
			stack = append(stack, path[i])
		}
	}
	return stack
}

// LoopBody returns the body of a *ast.ForStmt or *ast.RangeStmt (nil for
// other statements).
func LoopBody(loop ast.Stmt) *ast.BlockStmt {
	switch s := loop.(type) {
	case *ast.ForStmt:
		return s.Body
	case *ast.RangeStmt:
		return s.Body
	}
	return nil
}

// JitImportName returns the name under which file imports the jit package
// at path, or "" when it does not import it by a usable name.
func JitImportName(file *ast.File, path string) string {
	if file == nil {
		return ""
	}
	for _, spec := range file.Imports {
		if strings.Trim(spec.Path.Value, "\"`") != path {
			continue
		}
		if spec.Name == nil {
			return "jit"
		}
		if spec.Name.Name == "_" || spec.Name.Name == "." {
			return ""
		}
		return spec.Name.Name
	}
	return ""
}
