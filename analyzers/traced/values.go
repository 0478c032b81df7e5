package traced

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// Assigned returns the values that n gives to the variable v: its
// definition, the values assigned to it as a whole, and its var
// declaration's value.
func Assigned(info *types.Info, n ast.Node, v types.Object) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(n, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) != len(s.Rhs) {
				return true
			}
			for i, l := range s.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok || (info.Defs[id] != v && info.Uses[id] != v) {
					continue
				}
				if s.Tok == token.DEFINE || s.Tok == token.ASSIGN {
					out = append(out, s.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			for i, id := range s.Names {
				if info.Defs[id] == v && i < len(s.Values) {
					out = append(out, s.Values[i])
				}
			}
		}
		return true
	})
	return out
}

// EnclosingFunc returns the innermost function (declaration or literal) of
// a stack made by PathTo, or nil.
func EnclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}

// DeclValues returns the values given to the variable v in the function
// that declares it (see Assigned), or in the whole package for a package
// variable, and whether any statement there changes its contents in
// place (an element assignment such as v[i] = x).
func (r *Result) DeclValues(v types.Object) (values []ast.Expr, elemWrites bool) {
	for _, n := range r.declScope(v) {
		values = append(values, Assigned(r.Info, n, v)...)
		ast.Inspect(n, func(n ast.Node) bool {
			if s, ok := n.(*ast.AssignStmt); ok {
				for _, lhs := range s.Lhs {
					if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok && RootIdent(ix) != nil && r.Info.Uses[RootIdent(ix)] == v {
						elemWrites = true
					}
				}
			}
			return !elemWrites
		})
	}
	return values, elemWrites
}

// FieldWrites returns the values assigned to the field v.name of the
// struct variable v where v is declared (g.adj = append(g.adj, …)).
func (r *Result) FieldWrites(v types.Object, name string) []ast.Expr {
	var out []ast.Expr
	for _, n := range r.declScope(v) {
		ast.Inspect(n, func(n ast.Node) bool {
			if s, ok := n.(*ast.AssignStmt); ok && len(s.Lhs) == len(s.Rhs) {
				for i, lhs := range s.Lhs {
					sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
					if !ok || sel.Sel.Name != name {
						continue
					}
					if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && r.Info.Uses[id] == v {
						out = append(out, s.Rhs[i])
					}
				}
			}
			return true
		})
	}
	return out
}

// declScope returns the innermost function that declares v, or the
// package's files for a package variable.
func (r *Result) declScope(v types.Object) []ast.Node {
	if f := r.File(v.Pos()); f != nil {
		path, _ := astutil.PathEnclosingInterval(f, v.Pos(), v.Pos())
		for _, n := range path {
			switch n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				return []ast.Node{n}
			}
		}
	}
	scope := make([]ast.Node, len(r.Files))
	for i, f := range r.Files {
		scope[i] = f
	}
	return scope
}

// IsBuiltin reports whether fun is the builtin called name.
func IsBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = info.Uses[id].(*types.Builtin)
	return ok
}

// FieldValue returns the value that a struct literal gives to the field
// name (a promoted one too, from the literal of the embedded struct), or
// nil.
func FieldValue(info *types.Info, lit *ast.CompositeLit, name string) ast.Expr {
	t := info.TypeOf(lit)
	if t == nil {
		return nil
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var embedded []*ast.CompositeLit
	for i, elt := range lit.Elts {
		var field string
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				field = id.Name
			}
			elt = kv.Value
		} else if i < st.NumFields() {
			field = st.Field(i).Name()
		}
		if field == name {
			return elt
		}
		if inner, ok := ast.Unparen(elt).(*ast.CompositeLit); ok && embeddedField(st, field) {
			embedded = append(embedded, inner)
		}
	}
	for _, inner := range embedded {
		if v := FieldValue(info, inner, name); v != nil {
			return v // a promoted field, from the embedded struct's literal
		}
	}
	return nil
}

// embeddedField reports whether st has an embedded field called name.
func embeddedField(st *types.Struct, name string) bool {
	for f := range st.Fields() {
		if f.Embedded() && f.Name() == name {
			return true
		}
	}
	return false
}
