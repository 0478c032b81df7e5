package traced

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// maxEnumerated is the largest trip count that enumerate evaluates.
const maxEnumerated = 4096

// enumerate counts the distinct values that e takes over the iterations
// of a counting loop with constant bounds (for epoch := range 14, or
// for i := 0; i < 14; i++), by evaluating it on each value of the counter:
// e may use the counter, constants, variables the loop body defines from
// those, arithmetic and shifts, and min and max (min(8<<epoch, 32) takes 3
// values). ok is false when e is anything else.
func (r *Result) enumerate(l *Loop, e ast.Expr) (int64, bool) {
	counter, values := r.counterValues(l)
	if counter == nil {
		return 0, false
	}
	seen := map[string]bool{}
	for _, v := range values {
		x := r.evalConst(l, e, counter, v, 0)
		if x == nil {
			return 0, false
		}
		seen[x.ExactString()] = true
	}
	return int64(len(seen)), true
}

// counterValues returns the counter of a counting loop with constant
// bounds and the values it takes, or nil.
func (r *Result) counterValues(l *Loop) (types.Object, []constant.Value) {
	var counter types.Object
	var start, step int64
	switch s := l.Stmt.(type) {
	case *ast.RangeStmt:
		if id, ok := s.Key.(*ast.Ident); ok {
			counter, start, step = r.Info.Defs[id], 0, 1
		}
	case *ast.ForStmt:
		init, ok := s.Init.(*ast.AssignStmt)
		if !ok || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
			return nil, nil
		}
		id, _ := init.Lhs[0].(*ast.Ident)
		n, ok := ConstInt(r.Info, init.Rhs[0])
		if id == nil || !ok {
			return nil, nil
		}
		counter, start, step = r.Info.Defs[id], n, postStep(r.Info, s.Post)
	}
	tc := Trips(r.Info, l.Stmt)
	if counter == nil || step == 0 || !tc.Known || tc.N > maxEnumerated || assignedIn(r.Info, LoopBody(l.Stmt), counter) {
		return nil, nil
	}
	values := make([]constant.Value, tc.N)
	for i := range values {
		values[i] = constant.MakeInt64(start + int64(i)*step)
	}
	return counter, values
}

// evalConst evaluates e with the counter set to v, or returns nil.
func (r *Result) evalConst(l *Loop, e ast.Expr, counter types.Object, v constant.Value, depth int) constant.Value {
	if c := r.Info.Types[e].Value; c != nil {
		return c
	}
	if depth > 8 {
		return nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := r.Info.Uses[e]
		if obj == counter {
			return v
		}
		if defs := l.defs[obj]; len(defs) == 1 && !l.vars[obj] && len(l.assigned[obj]) == 0 {
			return r.evalConst(l, defs[0], counter, v, depth+1)
		}
	case *ast.BinaryExpr:
		x := r.evalConst(l, e.X, counter, v, depth+1)
		y := r.evalConst(l, e.Y, counter, v, depth+1)
		if x == nil || y == nil || x.Kind() != constant.Int || y.Kind() != constant.Int {
			return nil
		}
		switch e.Op {
		case token.SHL, token.SHR:
			s, ok := constant.Uint64Val(y)
			if !ok || s > 62 {
				return nil
			}
			return constant.Shift(x, e.Op, uint(s))
		case token.ADD, token.SUB, token.MUL, token.REM, token.AND, token.OR, token.XOR:
			return constant.BinaryOp(x, e.Op, y)
		case token.QUO:
			if constant.Sign(y) == 0 {
				return nil
			}
			return constant.BinaryOp(x, token.QUO_ASSIGN, y) // integer division
		}
	case *ast.CallExpr:
		isMin, isMax := IsBuiltin(r.Info, e.Fun, "min"), IsBuiltin(r.Info, e.Fun, "max")
		if !isMin && !isMax || len(e.Args) == 0 {
			return nil
		}
		var best constant.Value
		for _, a := range e.Args {
			x := r.evalConst(l, a, counter, v, depth+1)
			if x == nil {
				return nil
			}
			if best == nil || isMin && constant.Compare(x, token.LSS, best) || isMax && constant.Compare(x, token.GTR, best) {
				best = x
			}
		}
		return best
	}
	return nil
}
