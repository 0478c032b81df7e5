package staticargs

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
)

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

// fieldWrites returns the assignments v.F = x (and v.F op= x) of static
// fields F in loop.
func fieldWrites(r *traced.Result, loop ast.Stmt, v types.Object, st *types.Struct) []staticField {
	var out []staticField
	ast.PreorderStack(loop, nil, func(n ast.Node, stack []ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) || traced.EveryKth(r.Info, stack) {
			return true
		}
		for i, lhs := range as.Lhs {
			sel, ok := lhs.(*ast.SelectorExpr)
			if !ok || !isStaticField(st, sel.Sel.Name) {
				continue
			}
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && r.Info.Uses[id] == v {
				value := as.Rhs[i]
				if as.Tok != token.ASSIGN {
					value = lhs // hp.Temp *= 0.9: made from the previous value
				}
				out = append(out, staticField{sel.Sel.Name, value})
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
