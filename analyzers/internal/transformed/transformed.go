// Package transformed finds the functions that jit's transformations
// (Vmap, Grad, ValueAndGrad) are applied to, for the wherenan and
// batchedcond analyzers.
package transformed

import (
	"go/ast"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
)

// Target is a function of the package passed to a transformation.
type Target struct {
	// Call is the transformation's call (jit.Vmap(f, ...), jit.Grad[G](f)).
	Call *ast.CallExpr
	// Func is the function's *ast.FuncDecl or *ast.FuncLit.
	Func ast.Node
	// Type and Body are the function's signature and body.
	Type *ast.FuncType
	Body *ast.BlockStmt
	// Name names the function in messages ("Loss", "func literal").
	Name string
}

// Find returns the functions of the package that calls of the named jit
// functions (e.g. "Grad", "ValueAndGrad") transform, in source order.
func Find(r *traced.Result, names ...string) []Target {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	decls := declsOf(r)
	var out []Target
	for _, f := range r.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || !want[traced.JitFunc(r.Info, call)] {
				return true
			}
			if t, ok := resolve(r, decls, call.Args[0]); ok {
				t.Call = call
				out = append(out, t)
			}
			return true
		})
	}
	return out
}

// Reachable returns t and the functions of the package it calls, directly
// or through other such calls (each once), with the first call that
// reaches each.
func Reachable(r *traced.Result, t Target) []Target {
	decls := declsOf(r)
	seen := map[ast.Node]bool{t.Func: true}
	out := []Target{t}
	for i := 0; i < len(out); i++ {
		ast.Inspect(out[i].Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := ast.Unparen(call.Fun).(*ast.Ident)
			if !ok {
				return true
			}
			obj, _ := r.Info.Uses[fn].(*types.Func)
			if d := decls[obj]; d != nil && !seen[d] {
				seen[d] = true
				out = append(out, Target{Call: call, Func: d, Type: d.Type, Body: d.Body, Name: d.Name.Name})
			}
			return true
		})
	}
	return out
}

func declsOf(r *traced.Result) map[*types.Func]*ast.FuncDecl {
	m := map[*types.Func]*ast.FuncDecl{}
	for _, f := range r.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Recv == nil {
				if obj, ok := r.Info.Defs[fd.Name].(*types.Func); ok {
					m[obj] = fd
				}
			}
		}
	}
	return m
}

// resolve finds the body of a function argument: a literal, a function of
// the package, or a variable assigned a literal exactly once.
func resolve(r *traced.Result, decls map[*types.Func]*ast.FuncDecl, e ast.Expr) (Target, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return Target{Func: e, Type: e.Type, Body: e.Body, Name: "func literal"}, true
	case *ast.Ident:
		switch obj := r.Info.Uses[e].(type) {
		case *types.Func:
			if d := decls[obj]; d != nil {
				return Target{Func: d, Type: d.Type, Body: d.Body, Name: d.Name.Name}, true
			}
		case *types.Var:
			if lit := litOf(r, obj); lit != nil {
				return Target{Func: lit, Type: lit.Type, Body: lit.Body, Name: obj.Name()}, true
			}
		}
	}
	return Target{}, false
}

// litOf returns the function literal assigned to v, when v is assigned
// exactly once (f := func(...) {...}).
func litOf(r *traced.Result, v *types.Var) *ast.FuncLit {
	var lit *ast.FuncLit
	n := 0
	for _, f := range r.Files {
		ast.Inspect(f, func(node ast.Node) bool {
			as, ok := node.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && r.Info.ObjectOf(id) == v {
					n++
					lit, _ = ast.Unparen(as.Rhs[i]).(*ast.FuncLit)
				}
			}
			return true
		})
	}
	if n != 1 {
		return nil
	}
	return lit
}

// Depends returns the objects of body whose values depend on the roots:
// the roots and every variable assigned (:=, =, var) from an expression
// that mentions one, to a fixed point. It is flow-insensitive, as the traced
// analysis is.
func Depends(info *types.Info, body *ast.BlockStmt, roots []types.Object) map[types.Object]bool {
	dep := map[types.Object]bool{}
	for _, o := range roots {
		dep[o] = true
	}
	for changed := true; changed; {
		changed = false
		mark := func(lhs []ast.Expr, rhs []ast.Expr) {
			if !Mentions(info, rhs, dep) {
				return
			}
			for _, l := range lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					obj := info.ObjectOf(id)
					if obj != nil && !dep[obj] {
						dep[obj], changed = true, true
					}
				}
			}
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				mark(s.Lhs, s.Rhs)
			case *ast.ValueSpec:
				lhs := make([]ast.Expr, len(s.Names))
				for i, id := range s.Names {
					lhs[i] = id
				}
				mark(lhs, s.Values)
			}
			return true
		})
	}
	return dep
}

// Mentions reports whether any of es refers to an object of set.
func Mentions(info *types.Info, es []ast.Expr, set map[types.Object]bool) bool {
	found := false
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && set[info.ObjectOf(id)] {
				found = true
			}
			return !found
		})
	}
	return found
}
