package traced

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Loops returns the for and range statements of stack whose body contains
// the current node, innermost last, stopping at the enclosing function.
func Loops(stack []ast.Node) []ast.Stmt {
	var loops []ast.Stmt
	for k := len(stack) - 1; k >= 0; k-- {
		var body *ast.BlockStmt
		switch s := stack[k].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			k = -1
			continue
		case *ast.ForStmt:
			body = s.Body
		case *ast.RangeStmt:
			body = s.Body
		default:
			continue
		}
		if k+1 < len(stack) && stack[k+1] == body {
			loops = append([]ast.Stmt{stack[k].(ast.Stmt)}, loops...)
		}
	}
	return loops
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

// Loop answers which values change from one iteration of a loop to the next.
type Loop struct {
	Stmt     ast.Stmt
	info     *types.Info
	vars     map[types.Object]bool       // loop variables and variables assigned in the loop
	defs     map[types.Object][]ast.Expr // values of variables declared in the body
	assigned map[types.Object][]ast.Expr // values assigned in the loop to whole variables
	visiting map[types.Object]bool
}

// NewLoop analyses a *ast.ForStmt or *ast.RangeStmt.
func NewLoop(info *types.Info, stmt ast.Stmt) *Loop {
	l := &Loop{Stmt: stmt, info: info, vars: map[types.Object]bool{}, defs: map[types.Object][]ast.Expr{},
		assigned: map[types.Object][]ast.Expr{}, visiting: map[types.Object]bool{}}
	var body *ast.BlockStmt
	switch s := stmt.(type) {
	case *ast.RangeStmt:
		body = s.Body
		for _, e := range []ast.Expr{s.Key, s.Value} {
			if id, ok := e.(*ast.Ident); ok {
				l.markVar(id)
			}
		}
	case *ast.ForStmt:
		body = s.Body
		if s.Post != nil {
			l.scanAssignments(s.Post)
		}
	}
	l.scanAssignments(body)
	return l
}

// NewScope analyses the body of a helper function as if it were one
// iteration of a loop in which only the parameters varying change: a
// variable varies when its values (definitions and assignments in the
// body; for a range variable, the value ranged over) depend on them.
func NewScope(info *types.Info, body *ast.BlockStmt, varying []*types.Var) *Loop {
	l := &Loop{info: info, vars: map[types.Object]bool{}, defs: map[types.Object][]ast.Expr{},
		assigned: map[types.Object][]ast.Expr{}, visiting: map[types.Object]bool{}}
	for _, v := range varying {
		l.vars[v] = true
	}
	give := func(id *ast.Ident, values ...ast.Expr) {
		obj := info.Defs[id]
		if obj == nil {
			obj = info.Uses[id]
		}
		if obj != nil {
			l.defs[obj] = append(l.defs[obj], values...)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if id, ok := e.(*ast.Ident); ok {
					give(id, s.X)
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range s.Lhs {
				if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
					if len(s.Lhs) == len(s.Rhs) {
						give(id, s.Rhs[i])
					} else {
						give(id, s.Rhs...)
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range s.Names {
				if i < len(s.Values) {
					give(id, s.Values[i])
				}
			}
		}
		return true
	})
	return l
}

func (l *Loop) markVar(id *ast.Ident) {
	if obj := l.info.Defs[id]; obj != nil {
		l.vars[obj] = true
	} else if obj := l.info.Uses[id]; obj != nil {
		l.vars[obj] = true
	}
}

// scanAssignments records the variables assigned in n and the definitions
// made in it. A variable assigned only on every k-th iteration (inside
// if s%10 == 0 { … }) takes a new value once per k calls, a few values
// rather than one per call, and is not counted as changing.
func (l *Loop) scanAssignments(n ast.Node) {
	ast.PreorderStack(n, nil, func(n ast.Node, stack []ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE && EveryKth(l.info, stack) {
				return true // changes once per k iterations: a few values
			}
			for i, lhs := range s.Lhs {
				id := RootIdent(lhs)
				if id == nil {
					continue
				}
				if def := l.info.Defs[id]; def != nil && s.Tok == token.DEFINE {
					if len(s.Lhs) == len(s.Rhs) {
						l.defs[def] = append(l.defs[def], s.Rhs[i])
					} else {
						l.defs[def] = append(l.defs[def], s.Rhs...)
					}
					continue
				}
				l.markVar(id)
				if obj := l.info.Uses[id]; obj != nil && lhs == ast.Expr(id) {
					if s.Tok != token.ASSIGN {
						// damping *= 0.5: a value made from the previous one.
						l.assigned[obj] = append(l.assigned[obj], lhs)
					} else if len(s.Lhs) == len(s.Rhs) {
						l.assigned[obj] = append(l.assigned[obj], s.Rhs[i])
					} else {
						l.assigned[obj] = append(l.assigned[obj], s.Rhs...) // x, ok = it.Next()
					}
				}
			}
		case *ast.IncDecStmt:
			if id := RootIdent(s.X); id != nil && !EveryKth(l.info, stack) {
				l.markVar(id)
			}
		case *ast.ValueSpec:
			for i, id := range s.Names {
				if obj := l.info.Defs[id]; obj != nil && i < len(s.Values) {
					l.defs[obj] = append(l.defs[obj], s.Values[i])
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if id, ok := e.(*ast.Ident); ok {
					l.markVar(id)
				}
			}
		}
		return true
	})
}

// Varies reports whether e may have a different value on each iteration.
func (l *Loop) Varies(e ast.Expr) bool {
	varies := false
	ast.Inspect(e, func(n ast.Node) bool {
		if varies {
			return false
		}
		if id, ok := n.(*ast.Ident); ok {
			varies = l.VariesVar(l.info.Uses[id])
		}
		return true
	})
	return varies
}

// VariesAny reports whether any of es may change between iterations.
func (l *Loop) VariesAny(es []ast.Expr) bool {
	for _, e := range es {
		if l.Varies(e) {
			return true
		}
	}
	return false
}

// VariesVar reports whether the variable may hold a different value on each iteration.
func (l *Loop) VariesVar(obj types.Object) bool {
	if obj == nil {
		return false
	}
	if l.vars[obj] {
		return true
	}
	if l.visiting[obj] {
		return false
	}
	l.visiting[obj] = true
	defer delete(l.visiting, obj)
	for _, d := range l.defs[obj] {
		if l.Varies(d) {
			return true
		}
	}
	return false
}

// Values returns the expressions that the loop gives to the variable: its
// definitions in the body and the values assigned to it as a whole, and
// whether it is a loop variable (range key or value) with no such expression.
func (l *Loop) Values(obj types.Object) (values []ast.Expr, loopVar bool) {
	values = append(append(values, l.defs[obj]...), l.assigned[obj]...)
	if rs, ok := l.Stmt.(*ast.RangeStmt); ok {
		for _, e := range []ast.Expr{rs.Key, rs.Value} {
			if id, ok := e.(*ast.Ident); ok && l.info.Defs[id] == obj {
				loopVar = true
			}
		}
	}
	return values, loopVar
}

// TripCount describes how many times a loop runs.
type TripCount struct {
	// N is the count when Known.
	N     int64
	Known bool
	// Bound is the expression the count comes from when it is not known
	// (the upper bound of a counting loop, the operand of range over an int).
	Bound ast.Expr
	// Structure is true for a range over a slice, array, map or string: its
	// length is part of the program's structure (a pytree), fixed per compile.
	Structure bool
}

// Trips computes the trip count of a for or range statement.
func Trips(info *types.Info, stmt ast.Stmt) TripCount {
	switch s := stmt.(type) {
	case *ast.RangeStmt:
		t := info.TypeOf(s.X)
		if t == nil {
			return TripCount{}
		}
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			if n, ok := ConstInt(info, s.X); ok {
				return TripCount{N: n, Known: true}
			}
			return TripCount{Bound: s.X}
		}
		if lit, ok := ast.Unparen(s.X).(*ast.CompositeLit); ok {
			return TripCount{N: int64(len(lit.Elts)), Known: true, Structure: true}
		}
		if a, ok := arrayType(t); ok {
			return TripCount{N: a.Len(), Known: true, Structure: true}
		}
		if rangesOverElements(t) {
			return TripCount{Structure: true}
		}
	case *ast.ForStmt:
		return forTrips(info, s)
	}
	return TripCount{}
}

// arrayType returns the array type of t, or of what t points to.
func arrayType(t types.Type) (*types.Array, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	a, ok := t.Underlying().(*types.Array)
	return a, ok
}

// rangesOverElements reports whether ranging over a value of type t walks
// its elements: a slice, array, map, string or array pointer, or a type
// parameter whose every type is one of those (S ~[]jit.Array).
func rangesOverElements(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		iface, _ := tp.Constraint().Underlying().(*types.Interface)
		if iface == nil || iface.NumEmbeddeds() == 0 {
			return false
		}
		for i := range iface.NumEmbeddeds() {
			terms := []*types.Term{types.NewTerm(false, iface.EmbeddedType(i))}
			if u, ok := iface.EmbeddedType(i).(*types.Union); ok {
				terms = terms[:0]
				for j := range u.Len() {
					terms = append(terms, u.Term(j))
				}
			}
			for _, term := range terms {
				if !rangesOverElements(term.Type().Underlying()) {
					return false
				}
			}
		}
		return true
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map, *types.Basic, *types.Pointer:
		return true
	}
	return false
}

// forTrips handles `for i := a; i < b; i++` and its <=, >, >= and -- forms.
func forTrips(info *types.Info, s *ast.ForStmt) TripCount {
	init, ok := s.Init.(*ast.AssignStmt)
	cond, ok2 := s.Cond.(*ast.BinaryExpr)
	if !ok || !ok2 || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return TripCount{}
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return TripCount{}
	}
	v := info.Defs[id]
	if v == nil {
		v = info.Uses[id]
	}
	op, other := cond.Op, cond.Y
	offset, counterSide, exact := counterOffset(info, cond.X, v)
	if k, ok, ex := counterOffset(info, cond.Y, v); ok {
		offset, counterSide, exact, other = k, true, ex, cond.X
		op = map[token.Token]token.Token{token.LSS: token.GTR, token.LEQ: token.GEQ, token.GTR: token.LSS, token.GEQ: token.LEQ}[op]
	}
	if !counterSide {
		return TripCount{}
	}
	step := postStep(info, s.Post)
	if step == 0 || !exact {
		return TripCount{Bound: other} // i+k <= n with k not constant: about n
	}
	start, ok1 := ConstInt(info, init.Rhs[0])
	end, ok2 := ConstInt(info, other)
	end -= offset // i+k < end runs as i < end-k
	if !ok1 || !ok2 {
		if step > 0 {
			return TripCount{Bound: other}
		}
		return TripCount{Bound: init.Rhs[0]}
	}
	var n int64
	switch op {
	case token.LSS:
		n = ceilDiv(end-start, step)
	case token.LEQ:
		n = ceilDiv(end-start+1, step)
	case token.GTR:
		n = ceilDiv(start-end, -step)
	case token.GEQ:
		n = ceilDiv(start-end+1, -step)
	default:
		return TripCount{}
	}
	return TripCount{N: max(n, 0), Known: true}
}

// counterOffset reports whether e is the counter v, or the counter plus or
// minus something (i+k <= n), and returns that offset when it is a
// constant (exact).
func counterOffset(info *types.Info, e ast.Expr, v types.Object) (offset int64, isCounter, exact bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return 0, info.Uses[e] == v, true
	case *ast.BinaryExpr:
		id, ok := ast.Unparen(e.X).(*ast.Ident)
		if !ok || info.Uses[id] != v || e.Op != token.ADD && e.Op != token.SUB {
			return 0, false, false
		}
		k, exact := ConstInt(info, e.Y)
		if e.Op == token.SUB {
			k = -k
		}
		return k, true, exact
	}
	return 0, false, false
}

// postStep returns how much the post statement of a counting loop adds to
// its counter (i++, i -= 3), or 0 when it is not a constant step.
func postStep(info *types.Info, post ast.Stmt) int64 {
	switch p := post.(type) {
	case *ast.IncDecStmt:
		return map[token.Token]int64{token.INC: 1, token.DEC: -1}[p.Tok]
	case *ast.AssignStmt:
		if n, ok := ConstInt(info, p.Rhs[0]); ok && len(p.Rhs) == 1 {
			return map[token.Token]int64{token.ADD_ASSIGN: n, token.SUB_ASSIGN: -n}[p.Tok]
		}
	}
	return 0
}

func ceilDiv(a, b int64) int64 {
	if b <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// ConstInt returns the value of a constant integer expression.
func ConstInt(info *types.Info, e ast.Expr) (int64, bool) {
	v := info.Types[e].Value
	if v == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(v))
}

// MaxInt returns the largest value that e takes where it is evaluated: its
// value if it is a constant, or the last value of the counter of an
// enclosing counting loop (or of a range over an int or a literal of
// constants). stack is the path to e.
func MaxInt(info *types.Info, e ast.Expr, stack []ast.Node) (int64, bool) {
	if n, ok := ConstInt(info, e); ok {
		return n, true
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return 0, false
	}
	v := info.Uses[id]
	for _, loop := range Loops(stack) {
		switch s := loop.(type) {
		case *ast.ForStmt:
			init, ok := s.Init.(*ast.AssignStmt)
			if !ok || len(init.Lhs) != 1 {
				continue
			}
			if lid, ok := init.Lhs[0].(*ast.Ident); !ok || info.Defs[lid] != v {
				continue
			}
			if assignedIn(info, s.Body, v) {
				return 0, false
			}
			tc := forTrips(info, s)
			start, ok := ConstInt(info, init.Rhs[0])
			if !tc.Known || !ok {
				return 0, false
			}
			if inc, ok := s.Post.(*ast.IncDecStmt); ok && inc.Tok == token.DEC {
				return start, true
			}
			return start + max(tc.N-1, 0), true
		case *ast.RangeStmt:
			if kid, ok := s.Key.(*ast.Ident); ok && info.Defs[kid] == v {
				if tc := Trips(info, s); tc.Known {
					return max(tc.N-1, 0), true
				}
				return 0, false
			}
			if vid, ok := s.Value.(*ast.Ident); ok && info.Defs[vid] == v {
				lit, ok := ast.Unparen(s.X).(*ast.CompositeLit)
				if !ok {
					return 0, false
				}
				var best int64
				for _, elt := range lit.Elts {
					n, ok := ConstInt(info, elt)
					if !ok {
						return 0, false
					}
					best = max(best, n)
				}
				return best, true
			}
		}
	}
	return 0, false
}

// assignedIn reports whether v is assigned in n.
func assignedIn(info *types.Info, n ast.Node, v types.Object) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				if id := RootIdent(l); id != nil && info.Uses[id] == v {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id := RootIdent(s.X); id != nil && info.Uses[id] == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// EveryKth reports whether the statement under stack runs only on every
// k-th iteration (if s%10 == 0 { … }, k at least 2): a value written there
// changes once per k calls, a few compiles rather than one per call.
func EveryKth(info *types.Info, stack []ast.Node) bool {
	for _, n := range stack {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			continue
		}
		found := false
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			if eq, ok := n.(*ast.BinaryExpr); ok && eq.Op == token.EQL {
				if rem, ok := ast.Unparen(eq.X).(*ast.BinaryExpr); ok && rem.Op == token.REM {
					k, ok := ConstInt(info, rem.Y)
					found = found || ok && k >= 2
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
