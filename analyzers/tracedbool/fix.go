package tracedbool

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers/internal/astq"
	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/jitapi"
)

// whereFix rewrites the two common shapes of a branch on cond.Bool():
//
//	if c.Bool() { return a }; return b          → return jit.Where(c, a, b)
//	if c.Bool() { v = a } else { v = b }        → v = jit.Where(c, a, b)
//
// when the values are arrays (the result is an Array either way).
func whereFix(r *traced.Result, call *ast.CallExpr, cond ast.Expr, stack []ast.Node) (analysis.SuggestedFix, bool) {
	if len(stack) < 2 {
		return analysis.SuggestedFix{}, false
	}
	ifs, ok := stack[len(stack)-1].(*ast.IfStmt)
	if !ok || ifs.Cond != call || ifs.Init != nil {
		return analysis.SuggestedFix{}, false
	}
	file := r.File(call.Pos())
	jit := astq.JitImportName(file, jitapi.JitPath)
	if jit == "" { // also when file is nil
		return analysis.SuggestedFix{}, false
	}
	var (
		end     token.Pos
		newText string
	)
	if ifs.Else == nil {
		a, b, last, ok := returnShape(r, ifs, stack)
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		end = last
		newText = fmt.Sprintf("return %s.Where(%s, %s, %s)", jit, src(r, cond), src(r, a), src(r, b))
	} else {
		lhs, a, b, ok := assignShape(r, ifs)
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		end = ifs.End()
		newText = fmt.Sprintf("%s = %s.Where(%s, %s, %s)", src(r, lhs), jit, src(r, cond), src(r, a), src(r, b))
	}
	for _, cg := range file.Comments {
		if cg.Pos() < end && cg.End() > ifs.Pos() {
			return analysis.SuggestedFix{}, false // the rewrite would drop a comment
		}
	}
	return analysis.SuggestedFix{
		Message:   "Replace the branch with " + jit + ".Where",
		TextEdits: []analysis.TextEdit{{Pos: ifs.Pos(), End: end, NewText: []byte(newText)}},
	}, true
}

// returnShape matches `if c { return a }; return b` in a function returning one Array.
func returnShape(r *traced.Result, ifs *ast.IfStmt, stack []ast.Node) (a, b ast.Expr, end token.Pos, ok bool) {
	block, isBlock := stack[len(stack)-2].(*ast.BlockStmt)
	if !isBlock || len(ifs.Body.List) != 1 {
		return nil, nil, 0, false
	}
	ret1, ok1 := ifs.Body.List[0].(*ast.ReturnStmt)
	var ret2 *ast.ReturnStmt
	for i, s := range block.List {
		if s == ifs && i+1 < len(block.List) {
			ret2, _ = block.List[i+1].(*ast.ReturnStmt)
		}
	}
	if !ok1 || ret2 == nil || len(ret1.Results) != 1 || len(ret2.Results) != 1 || !returnsOneArray(r, stack) {
		return nil, nil, 0, false
	}
	return ret1.Results[0], ret2.Results[0], ret2.End(), true
}

// returnsOneArray reports whether the innermost function of stack returns exactly one jit.Array.
func returnsOneArray(r *traced.Result, stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		var ft *ast.FuncType
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			ft = f.Type
		case *ast.FuncDecl:
			ft = f.Type
		default:
			continue
		}
		if ft.Results == nil || ft.Results.NumFields() != 1 {
			return false
		}
		return jitapi.IsArray(r.Info.TypeOf(ft.Results.List[0].Type))
	}
	return false
}

// assignShape matches `if c { v = a } else { v = b }` with v an Array.
func assignShape(r *traced.Result, ifs *ast.IfStmt) (lhs, a, b ast.Expr, ok bool) {
	els, isBlock := ifs.Else.(*ast.BlockStmt)
	if !isBlock || len(ifs.Body.List) != 1 || len(els.List) != 1 {
		return nil, nil, nil, false
	}
	s1, ok1 := ifs.Body.List[0].(*ast.AssignStmt)
	s2, ok2 := els.List[0].(*ast.AssignStmt)
	if !ok1 || !ok2 || s1.Tok != token.ASSIGN || s2.Tok != token.ASSIGN ||
		len(s1.Lhs) != 1 || len(s1.Rhs) != 1 || len(s2.Lhs) != 1 || len(s2.Rhs) != 1 {
		return nil, nil, nil, false
	}
	if src(r, s1.Lhs[0]) != src(r, s2.Lhs[0]) || !jitapi.IsArray(r.Info.TypeOf(s1.Lhs[0])) {
		return nil, nil, nil, false
	}
	return s1.Lhs[0], s1.Rhs[0], s2.Rhs[0], true
}

// src prints an expression.
func src(r *traced.Result, e ast.Expr) string {
	var buf bytes.Buffer
	if err := format.Node(&buf, r.Fset, e); err != nil {
		return ""
	}
	return buf.String()
}
