package traced

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// StateFact is the traced analyzer's fact about an exported method with a
// pointer receiver, in a package that imports jit, that writes the field
// Field of its receiver (an optimizer's a.Steps++). Called from traced code
// on a receiver that outlives the trace, that write happens once per trace.
type StateFact struct{ Field string }

// AFact marks StateFact as an analysis fact.
func (*StateFact) AFact() {}

// String is the fact's form in analysistest expectations.
func (f *StateFact) String() string { return "writes its receiver's " + f.Field }

// exportState exports a StateFact for each exported method of the package
// with a pointer receiver that writes a field of it.
func exportState(pass *analysis.Pass, r *Result) {
	r.exportedFuncs(pass, func(fd *ast.FuncDecl, obj *types.Func) {
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
			return
		}
		if _, ptr := obj.Signature().Recv().Type().(*types.Pointer); !ptr {
			return
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		field := ""
		write := func(lhs ast.Expr) {
			if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && field == "" {
				if id := RootIdent(sel); id != nil && pass.TypesInfo.Uses[id] == recv {
					field = sel.Sel.Name
				}
			}
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					write(lhs)
				}
			case *ast.IncDecStmt:
				write(n.X)
			}
			return field == ""
		})
		if field != "" {
			pass.ExportObjectFact(obj, &StateFact{Field: field})
		}
	})
}

// ReceiverWrite returns the field of its receiver that fn, a method of
// another package, writes (from its StateFact).
func (r *Result) ReceiverWrite(fn *types.Func) (string, bool) {
	if fn.Pkg() == nil || fn.Pkg() == r.pkg || r.importFact == nil {
		return "", false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var f StateFact
	if !r.importFact(fn, &f) {
		return "", false
	}
	return f.Field, true
}
