package staticargs

import (
	"bytes"
	"go/ast"
	"go/format"
	"strings"

	"github.com/jitlint/jitlint/analyzers/internal/astq"
	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
)

// hoistFix moves `f := jit.Jit(...)` (or `f = jit.Jit(...)`), a statement of
// the body of loop, to just before loop, when the call uses no variable
// declared in the loop and the move cannot change what f names elsewhere.
func hoistFix(r *traced.Result, call *ast.CallExpr, stack []ast.Node, loop ast.Stmt) (analysis.SuggestedFix, bool) {
	none := analysis.SuggestedFix{}
	if len(stack) < 2 {
		return none, false
	}
	assign, ok := stack[len(stack)-1].(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 1 || len(assign.Rhs) != 1 || assign.Rhs[0] != call {
		return none, false
	}
	lhs, ok := assign.Lhs[0].(*ast.Ident)
	if !ok || lhs.Name == "_" {
		return none, false
	}
	body := astq.LoopBody(loop)
	if body == nil || !contains(body.List, assign) || usesLoopVars(r, call, loop) {
		return none, false
	}
	// The statement that holds the loop (a label goes with it) and its block.
	var target ast.Node = loop
	var block ast.Node
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == loop {
			if i > 0 {
				if l, ok := stack[i-1].(*ast.LabeledStmt); ok {
					target = l
					i--
				}
			}
			if i > 0 {
				block = stack[i-1]
			}
			break
		}
	}
	if block == nil || clash(r, lhs.Name, block, target) || hasComments(r, assign) {
		return none, false
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, r.Fset, assign); err != nil {
		return none, false
	}
	tf := r.Fset.File(assign.Pos())
	indent := strings.Repeat("\t", tf.Position(target.Pos()).Column-1)
	delStart := tf.LineStart(tf.Line(assign.Pos()))
	delEnd := assign.End()
	if line := tf.Line(assign.End()); line < tf.LineCount() {
		delEnd = tf.LineStart(line + 1)
	}
	return analysis.SuggestedFix{
		Message: "Move the jit.Jit call before the loop",
		TextEdits: []analysis.TextEdit{
			{Pos: target.Pos(), End: target.Pos(), NewText: []byte(buf.String() + "\n" + indent)},
			{Pos: delStart, End: delEnd},
		},
	}, true
}

func contains(list []ast.Stmt, s ast.Stmt) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// usesLoopVars reports whether call refers to a variable declared inside
// loop (its counters or body variables), other than those it declares itself.
func usesLoopVars(r *traced.Result, call *ast.CallExpr, loop ast.Stmt) bool {
	uses := false
	ast.Inspect(call, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || uses {
			return !uses
		}
		obj := r.Info.Uses[id]
		if obj == nil || !obj.Pos().IsValid() {
			return true
		}
		inLoop := loop.Pos() <= obj.Pos() && obj.Pos() < loop.End()
		inCall := call.Pos() <= obj.Pos() && obj.Pos() < call.End()
		uses = inLoop && !inCall
		return !uses
	})
	return uses
}

// clash reports whether hoisting a definition of name into block, before
// target, could clash with or shadow another name: the block declares it,
// or mentions it after target.
func clash(r *traced.Result, name string, block, target ast.Node) bool {
	if scope := r.Info.Scopes[block]; scope != nil && scope.Lookup(name) != nil {
		return true
	}
	found := false
	ast.Inspect(block, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name && id.Pos() >= target.End() {
			found = true
		}
		return !found
	})
	return found
}

// hasComments reports whether a comment lies inside n (it would be lost).
func hasComments(r *traced.Result, n ast.Node) bool {
	f := r.File(n.Pos())
	if f == nil {
		return true // unknown file: do not risk the rewrite
	}
	for _, cg := range f.Comments {
		if cg.Pos() >= n.Pos() && cg.End() <= n.End() {
			return true
		}
	}
	return false
}
