package traced

import (
	"go/ast"
	"go/token"
)

// Tracer guards: x.IsTracer() is true while x is being traced, so
//
//	if !x.IsTracer() { eager-only code }
//	if x.IsTracer() { traced code } else { eager-only code }
//	if x.IsTracer() { ...; return }; eager-only code
//
// keep the eager-only code out of the trace. The analyzers skip it.

// markGuards records in r.dead the statements of body that never run
// while tracing.
func (r *Result) markGuards(body ast.Node) {
	ast.Inspect(body, func(n ast.Node) bool {
		block, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for i, stmt := range block.List {
			ifs, ok := stmt.(*ast.IfStmt)
			if !ok || ifs.Init != nil {
				continue
			}
			tracing, ok := r.tracerTest(ifs.Cond)
			if !ok {
				continue
			}
			if !tracing {
				r.dead[ifs.Body] = true
				continue
			}
			if ifs.Else != nil {
				r.dead[ifs.Else] = true
			} else if endsInReturn(ifs.Body) {
				for _, rest := range block.List[i+1:] {
					r.dead[rest] = true
				}
				break
			}
		}
		return true
	})
}

// tracerTest recognises x.IsTracer() (tracing true) and !x.IsTracer()
// (tracing false) on a traced x.
func (r *Result) tracerTest(cond ast.Expr) (tracing, ok bool) {
	cond = ast.Unparen(cond)
	if u, isNot := cond.(*ast.UnaryExpr); isNot && u.Op == token.NOT {
		t, ok := r.tracerTest(u.X)
		return !t, ok
	}
	call, isCall := cond.(*ast.CallExpr)
	if !isCall {
		return false, false
	}
	name, recv := ArrayMethod(r.Info, call)
	return true, name == "IsTracer" && r.IsTraced(recv)
}

// endsInReturn reports whether a block ends with a return statement.
func endsInReturn(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}

// Dead reports whether n is a statement that never runs while tracing
// (guarded by a test of IsTracer on a traced value).
func (r *Result) Dead(n ast.Node) bool { return r.dead[n] }
