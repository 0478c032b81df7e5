package staticargs

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
)

// maxFew is the largest number of distinct static values that counts as "a
// few compiles": a static value that cycles through at most that many
// values compiles once per value and then hits the cache.
const maxFew = 8

// fewValues returns how many distinct values e can take in loop l when
// that number is small and fixed by the program: a bool, x % k with a
// constant k, an element of a table of constants, a value assigned from
// constants in the loop. ok is false when the count is not known or large.
func fewValues(r *traced.Result, l *traced.Loop, e ast.Expr) (int64, bool) {
	n, ok := distinct(r, l, e, map[types.Object]bool{})
	return n, ok && n <= maxFew
}

func distinct(r *traced.Result, l *traced.Loop, e ast.Expr, seen map[types.Object]bool) (int64, bool) {
	if r.Info.Types[e].Value != nil {
		return 1, true
	}
	if t := r.Info.TypeOf(e); t != nil {
		if b, ok := t.Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
			return 2, true
		}
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if e.Op == token.REM {
			if v := r.Info.Types[e.Y].Value; v != nil {
				if k, ok := constant.Int64Val(constant.ToInt(v)); ok && k > 0 {
					return k, true
				}
			}
		}
	case *ast.IndexExpr:
		return tableSize(r, e.X)
	case *ast.Ident:
		obj := r.Info.Uses[e]
		if obj == nil || seen[obj] {
			return 0, false
		}
		seen[obj] = true
		values, loopVar := l.Values(obj)
		if loopVar {
			if rs, ok := l.Stmt.(*ast.RangeStmt); ok && r.Info.Defs[identOf(rs.Value)] == obj {
				return constSet(r, rs.X)
			}
			return 0, false
		}
		if len(values) == 0 {
			return 0, false
		}
		var total int64
		for _, v := range values {
			n, ok := distinct(r, l, v, seen)
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
// an array type, or a variable declared with a literal and not assigned.
func tableSize(r *traced.Result, x ast.Expr) (int64, bool) {
	if lit, ok := ast.Unparen(x).(*ast.CompositeLit); ok {
		return int64(len(lit.Elts)), true
	}
	if t := r.Info.TypeOf(x); t != nil {
		if a, ok := t.Underlying().(*types.Array); ok {
			return a.Len(), true
		}
	}
	return 0, false
}

// constSet returns the number of distinct constants in a literal ranged over.
func constSet(r *traced.Result, x ast.Expr) (int64, bool) {
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

// staticField is the value given to a `jit:"static"` field of an argument.
type staticField struct {
	field string
	value ast.Expr
}

// staticFields returns the values that arg (of type t) gives to its
// static fields where it is built: a struct literal, &literal, or a
// variable built or updated in an enclosing loop (v.F = x).
func staticFields(r *traced.Result, arg ast.Expr, t types.Type, stack []ast.Node) []staticField {
	st := staticStruct(t)
	if st == nil {
		return nil
	}
	var out []staticField
	var visit func(e ast.Expr, seen map[types.Object]bool)
	visit = func(e ast.Expr, seen map[types.Object]bool) {
		switch e := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			if e.Op == token.AND {
				visit(e.X, seen)
			}
		case *ast.CompositeLit:
			for i, elt := range e.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && isStaticField(st, id.Name) {
						out = append(out, staticField{id.Name, kv.Value})
					}
				} else if i < st.NumFields() && isStaticField(st, st.Field(i).Name()) {
					out = append(out, staticField{st.Field(i).Name(), elt})
				}
			}
		case *ast.Ident:
			obj := r.Info.Uses[e]
			if obj == nil || seen[obj] {
				return
			}
			seen[obj] = true
			for _, loop := range traced.Loops(stack) {
				values, _ := traced.NewLoop(r.Info, loop).Values(obj)
				for _, v := range values {
					visit(v, seen)
				}
				out = append(out, fieldWrites(r, loop, obj, st)...)
			}
		}
	}
	visit(arg, map[types.Object]bool{})
	return out
}

// fieldWrites returns the assignments v.F = x of static fields F in loop.
func fieldWrites(r *traced.Result, loop ast.Stmt, v types.Object, st *types.Struct) []staticField {
	var out []staticField
	ast.Inspect(loop, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, lhs := range as.Lhs {
			sel, ok := lhs.(*ast.SelectorExpr)
			if !ok || !isStaticField(st, sel.Sel.Name) {
				continue
			}
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && r.Info.Uses[id] == v {
				out = append(out, staticField{sel.Sel.Name, as.Rhs[i]})
			}
		}
		return true
	})
	return out
}

// staticStruct returns the struct type of t (or *t) when it has static fields.
func staticStruct(t types.Type) *types.Struct {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		if traced.IsStaticTag(st.Tag(i)) {
			return st
		}
	}
	return nil
}

func isStaticField(st *types.Struct, name string) bool {
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return traced.IsStaticTag(st.Tag(i))
		}
	}
	return false
}
