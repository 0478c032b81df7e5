package staticargs

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// checkJitInRepeatedFunc reports jit.Jit of a named function, a method or
// a function literal in a function of the package that runs many times (it
// is called in a loop, or from several places) when the wrapper is not kept
// in a cache: each run makes a new wrapper with an empty cache
// (handleUncached jitting the model for every request; a constructor
// jitting its value's method). A wrapper stored in a map or a package
// variable is a cache, not reported.
func checkJitInRepeatedFunc(r *traced.Result, j *traced.Jitted, stack []ast.Node, report func(analysis.Diagnostic)) {
	encl, ok := traced.EnclosingFunc(stack).(*ast.FuncDecl)
	if !ok || len(j.Call.Args) == 0 || !sameCode(r.Info, j.Call.Args[0], encl) || escapes(r, j, encl) {
		return
	}
	obj := r.Info.Defs[encl.Name]
	var calls []*ast.CallExpr
	inLoop := (*ast.CallExpr)(nil)
	for _, f := range r.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && typeutil.Callee(r.Info, call) == obj {
				calls = append(calls, call)
				if inLoop == nil && len(traced.Loops(r.PathTo(call))) > 0 {
					inLoop = call
				}
			}
			return true
		})
	}
	var why string
	switch {
	case inLoop != nil:
		why = fmt.Sprintf("%s is called in a loop at %s", encl.Name.Name, r.Where(inLoop.Pos()))
	case len(calls) > 1 && !branchesOnParam(r, encl, stack):
		why = fmt.Sprintf("%s is called from %d places", encl.Name.Name, len(calls))
	default:
		return
	}
	report(analysis.Diagnostic{
		Pos: j.Call.Pos(), End: j.Call.End(),
		Message: fmt.Sprintf("jit.Jit runs on every call of %s, and %s: each call makes a new wrapper with an empty cache, "+
			"so every call traces and compiles again. Create the jitted function once (a package variable, or a field of a value made once) and pass what differs between runs as arguments", encl.Name.Name, why),
	})
}

// sameCode reports whether e is the same function on every run of encl: a
// declared function or method (F, pkg.F, or a method value m.Step), or a
// function literal that captures nothing declared in encl. A literal over
// the run's own variables is a new closure on each run (a factory's
// counter, a scale it was given), which a new wrapper is how to jit.
func sameCode(info *types.Info, e ast.Expr, encl *ast.FuncDecl) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return !capturesFrom(info, e, encl)
	case *ast.Ident:
		_, ok := info.Uses[e].(*types.Func)
		return ok
	case *ast.SelectorExpr:
		_, ok := info.Uses[e.Sel].(*types.Func)
		return ok
	}
	return false
}

// capturesFrom reports whether lit reads a variable declared in encl
// outside lit.
func capturesFrom(info *types.Info, lit *ast.FuncLit, encl *ast.FuncDecl) bool {
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() {
				inEncl := v.Pos() >= encl.Pos() && v.Pos() < encl.End()
				inLit := v.Pos() >= lit.Pos() && v.Pos() < lit.End()
				found = found || inEncl && !inLit
			}
		}
		return !found
	})
	return found
}

// escapes reports whether the wrapper made by j is kept in a cache that
// outlives the run of encl: stored in a map or slice element, or in a
// package variable. (Returned, or stored in a field of a new value, it is
// still made anew on every run.)
func escapes(r *traced.Result, j *traced.Jitted, encl *ast.FuncDecl) bool {
	found := false
	ast.Inspect(encl.Body, func(n ast.Node) bool {
		if n, ok := n.(*ast.AssignStmt); ok {
			for i, rhs := range n.Rhs {
				if i >= len(n.Lhs) || !holdsWrapper(r, j, rhs) {
					continue
				}
				_, element := ast.Unparen(n.Lhs[i]).(*ast.IndexExpr)
				found = found || element || isPackageVar(r.Info, n.Lhs[i])
			}
		}
		return !found
	})
	return found
}

// holdsWrapper reports whether e is j's jit.Jit call or the variable that
// holds its result.
func holdsWrapper(r *traced.Result, j *traced.Jitted, e ast.Expr) bool {
	e = ast.Unparen(e)
	if e == ast.Expr(j.Call) {
		return true
	}
	id, ok := e.(*ast.Ident)
	return ok && j.Var != nil && r.Info.Uses[id] == j.Var
}

// isPackageVar reports whether e is a package-level variable.
func isPackageVar(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	return ok && v.Parent() != nil && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// branchesOnParam reports whether the statement at the end of stack runs
// in a branch of encl chosen by one of its parameters (switch mode { case
// "fast": … }): its callers may each pick another branch, so that being
// called from several places does not make it run several times.
func branchesOnParam(r *traced.Result, encl *ast.FuncDecl, stack []ast.Node) bool {
	params := traced.ParamVars(r.Info, encl.Type)
	mentions := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				v, _ := r.Info.Uses[id].(*types.Var)
				found = v != nil && slices.Contains(params, v)
			}
			return !found
		})
		return found
	}
	for _, n := range stack {
		switch n := n.(type) {
		case *ast.SwitchStmt:
			if n.Tag != nil && mentions(n.Tag) {
				return true
			}
		case *ast.IfStmt:
			if mentions(n.Cond) {
				return true
			}
		case *ast.CaseClause:
			if slices.ContainsFunc(n.List, mentions) {
				return true
			}
		}
	}
	return false
}
