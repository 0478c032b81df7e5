package traced

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// MaxFew is the largest number of distinct values that counts as "a few
// compiles" in a loop of any length: a static value or a size that cycles
// through at most that many values compiles once per value and then hits
// the cache.
const MaxFew = 8

// repeats is Repeats without the lock.
func (r *Result) repeats(l *Loop, e ast.Expr) bool {
	k, ok := r.distinct(l, e, map[types.Object]bool{})
	if !ok {
		return false
	}
	if r.chosen(l, e, 0) {
		return true // a bucket chooser's result: bounded by the program, not the data
	}
	tc := TripCount{}
	if l.Stmt != nil {
		tc = Trips(r.Info, l.Stmt)
	}
	if !tc.Known {
		return k <= MaxFew
	}
	return k <= MaxFew && k < tc.N || 2*k <= tc.N
}

// chosen reports whether e is the result of a bucket chooser (see
// constresults.go), directly or through variables the loop sets only from
// such results.
func (r *Result) chosen(l *Loop, e ast.Expr, depth int) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		_, ok := r.constReturns(e)
		return ok
	case *ast.Ident:
		values, loopVar := l.Values(r.Info.Uses[e])
		if loopVar || len(values) == 0 || depth > 4 {
			return false
		}
		for _, v := range values {
			if !r.chosen(l, v, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

func (r *Result) distinct(l *Loop, e ast.Expr, seen map[types.Object]bool) (int64, bool) {
	if r.Info.Types[e].Value != nil {
		return 1, true
	}
	if t := r.Info.TypeOf(e); t != nil {
		if b, ok := t.Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
			return 2, true
		}
	}
	if n, ok := r.enumerate(l, e); ok {
		return n, true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			// 1 + i%3: as many values as the side that is not constant.
			if r.Info.Types[e.Y].Value != nil {
				return r.distinct(l, e.X, seen)
			}
			if r.Info.Types[e.X].Value != nil && e.Op != token.QUO {
				return r.distinct(l, e.Y, seen)
			}
		}
		if e.Op == token.REM {
			if v := r.Info.Types[e.Y].Value; v != nil {
				if k, ok := constant.Int64Val(constant.ToInt(v)); ok && k > 0 {
					return k, true
				}
			}
		}
	case *ast.IndexExpr:
		n, ok := r.tableSize(e.X)
		if c, cok := r.tableConsts(e.X); cok && c < n {
			n = c // []int{2, 4, 2, 4}: two values, whatever the index
		}
		if k, kok := r.distinct(l, e.Index, seen); kok && (ok || !l.Varies(e.X)) {
			// table[i%k], phase[step%2 == 0]: at most k of the elements
			// of a table that the loop does not change.
			if !ok || k < n {
				n = k
			}
			return n, true
		}
		return n, ok
	case *ast.CallExpr:
		return r.constReturns(e)
	case *ast.Ident:
		obj := r.Info.Uses[e]
		if obj == nil || seen[obj] {
			return 0, false
		}
		seen[obj] = true
		values, loopVar := l.Values(obj)
		if loopVar {
			if rs, ok := l.Stmt.(*ast.RangeStmt); ok && r.Info.Defs[identOf(rs.Value)] == obj {
				return r.ConstSet(rs.X)
			}
			return 0, false
		}
		if len(values) == 0 {
			return 0, false
		}
		var total int64
		for _, v := range values {
			n, ok := r.distinct(l, v, seen)
			if !ok {
				return 0, false
			}
			total += n
		}
		return total, true
	}
	return 0, false
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := e.(*ast.Ident)
	return id
}

// tableSize returns the number of elements of a fixed table: a literal,
// an array type, or a variable given only a literal and never written
// element by element.
func (r *Result) tableSize(x ast.Expr) (int64, bool) {
	if lit, ok := ast.Unparen(x).(*ast.CompositeLit); ok {
		return int64(len(lit.Elts)), true
	}
	if t := r.Info.TypeOf(x); t != nil {
		if a, ok := t.Underlying().(*types.Array); ok {
			return a.Len(), true
		}
	}
	if lit := r.tableLiteral(x); lit != nil {
		return int64(len(lit.Elts)), true
	}
	return 0, false
}

// tableConsts returns at most how many distinct values the table x holds
// when it is a literal of constants: its distinct constants, and the zero
// of the elements that an array literal leaves out.
func (r *Result) tableConsts(x ast.Expr) (int64, bool) {
	lit := r.tableLiteral(x)
	if lit == nil {
		return 0, false
	}
	n, ok := r.ConstSet(lit)
	if a, isArray := arrayType(r.Info.TypeOf(lit)); isArray && a.Len() > int64(len(lit.Elts)) {
		n++
	}
	return n, ok
}

// tableLiteral returns the literal that the table x is: x itself, or the
// only value of a variable never written element by element; or nil.
func (r *Result) tableLiteral(x ast.Expr) *ast.CompositeLit {
	if id, ok := ast.Unparen(x).(*ast.Ident); ok {
		if v, ok := r.Info.Uses[id].(*types.Var); ok {
			if values, elemWrites := r.DeclValues(v); len(values) == 1 && !elemWrites {
				x = values[0]
			}
		}
	}
	lit, _ := ast.Unparen(x).(*ast.CompositeLit)
	return lit
}

// ConstSet returns the number of distinct constants in a literal ranged over.
func (r *Result) ConstSet(x ast.Expr) (int64, bool) {
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	if !ok {
		return 0, false
	}
	seen := map[string]bool{}
	for _, elt := range lit.Elts {
		v := r.Info.Types[elt].Value
		if v == nil {
			return 0, false
		}
		seen[v.ExactString()] = true
	}
	return int64(len(seen)), true
}

// constReturns returns the number of distinct constants that the
// functions called by call return, when they are bucket choosers (see
// constresults.go): of this package, or of another with a FewFact.
func (r *Result) constReturns(call *ast.CallExpr) (int64, bool) {
	values, ok := r.returns(call, 0)
	if len(values) > 0 {
		n, cok := countConstants(r.Info, r.Files, values)
		return n, ok && cok
	}
	fn, isFunc := typeutil.Callee(r.Info, call).(*types.Func)
	if !isFunc || fn.Pkg() == nil || fn.Pkg() == r.pkg || r.importFact == nil {
		return 0, false
	}
	var f FewFact
	if !r.importFact(fn, &f) {
		return 0, false
	}
	return int64(f.N), true
}

// RangedOver returns what the range statement whose value variable e
// names ranges over (for _, d := range s.Depths: s.Depths), or nil.
func (r *Result) RangedOver(e ast.Expr) ast.Expr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	for _, n := range r.PathTo(id) {
		if rs, ok := n.(*ast.RangeStmt); ok && r.Info.Defs[identOf(rs.Value)] == r.Info.Uses[id] {
			return rs.X
		}
	}
	return nil
}
