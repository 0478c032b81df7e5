package traced

import (
	"go/ast"
	"go/types"
)

// Function values: which declarations and literals an expression of
// function type can hold. Users keep functions in variables, struct fields,
// maps and slices (tables of steps or activations), pass them through
// constructors that return closures, and call them through interfaces; the
// builder follows all of these to find the code that runs while tracing.

// recordFuncs remembers, for each variable, field and table, the functions
// stored in it: by assignment, var declaration, struct and table literals,
// and ranging over a table.
func (r *Result) recordFuncs(n ast.Node) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		if len(n.Lhs) == len(n.Rhs) {
			for i := range n.Lhs {
				r.store(n.Lhs[i], n.Rhs[i], nil)
			}
		}
	case *ast.ValueSpec:
		if len(n.Names) == len(n.Values) {
			for i, id := range n.Names {
				r.store(id, n.Values[i], nil)
			}
		}
	case *ast.CompositeLit:
		if _, ok := r.Info.TypeOf(n).Underlying().(*types.Struct); ok {
			for _, elt := range n.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					r.store(kv.Key, kv.Value, nil)
				}
			}
		}
	case *ast.CallExpr:
		r.storeArgs(n)
	case *ast.RangeStmt:
		if n.Value != nil {
			if obj := r.holder(n.X); obj != nil {
				if v := r.holder(n.Value); v != nil {
					r.aliases[v] = append(r.aliases[v], obj)
				}
			}
		}
	}
}

// store records the functions that value holds in obj, or in the holder
// of target when obj is nil.
func (r *Result) store(target, value ast.Expr, obj types.Object) {
	t := r.Info.TypeOf(value)
	if t == nil {
		t = r.Info.TypeOf(target)
	}
	if t == nil || !(holdsFunc(t) || isOptionSlice(t)) {
		return
	}
	if obj == nil {
		obj = r.holder(target)
	}
	if obj != nil {
		r.stored[obj] = append(r.stored[obj], value)
	}
}

// storeArgs records the functions passed to the parameters of a function
// declared in this package (apply(act, x) stores act in apply's parameter).
func (r *Result) storeArgs(call *ast.CallExpr) {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return
	}
	fn, ok := r.Info.Uses[id].(*types.Func)
	if !ok || r.decls[fn.Origin()] == nil {
		return
	}
	params := ParamVars(r.Info, r.decls[fn.Origin()].Type)
	for i, arg := range call.Args {
		if i < len(params) && params[i] != nil && !call.Ellipsis.IsValid() {
			r.store(nil, arg, params[i])
		}
	}
}

// holderFuncs returns the functions stored in a variable, field or table
// (directly, or in the table it ranges over).
func (r *Result) holderFuncs(obj types.Object) []ast.Node {
	if nodes, ok := r.funcs[obj]; ok {
		return nodes
	}
	r.funcs[obj] = nil // recursion guard
	var out []ast.Node
	for _, e := range r.stored[obj] {
		out = append(out, r.funcExprs(e)...)
	}
	for _, from := range r.aliases[obj] {
		out = append(out, r.holderFuncs(from)...)
	}
	r.funcs[obj] = out
	return out
}

// isOptionSlice reports whether t is []jit.Option (options built for jit.Jit(f, opts...)).
func isOptionSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	n, ok := types.Unalias(s.Elem()).(*types.Named)
	return ok && n.Obj().Name() == "Option" && n.Obj().Pkg() != nil && IsJitPath(n.Obj().Pkg().Path())
}

// holdsFunc reports whether t is a function type or a container of them.
func holdsFunc(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Map:
		return holdsFunc(u.Elem())
	case *types.Slice:
		return holdsFunc(u.Elem())
	case *types.Array:
		return holdsFunc(u.Elem())
	}
	return false
}

// holder returns the variable or field that an assignment target or a
// function expression names: x, s.f, x[k], s.f[k].
func (r *Result) holder(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := r.objOf(e).(*types.Var); ok {
			return v
		}
	case *ast.SelectorExpr:
		if v, ok := r.Info.Uses[e.Sel].(*types.Var); ok {
			return v
		}
	case *ast.IndexExpr:
		if tv := r.Info.Types[e.X]; tv.IsValue() {
			return r.holder(e.X)
		}
	}
	return nil
}

// funcExprs returns the declarations and literals that a value expression
// of function type (or a table literal of them) can evaluate to, as far as
// they are known when the assignment is recorded.
func (r *Result) funcExprs(e ast.Expr) []ast.Node {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.FuncLit:
		return []ast.Node{e}
	case *ast.CompositeLit:
		var out []ast.Node
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			out = append(out, r.funcExprs(elt)...)
		}
		return out
	}
	nodes, _ := r.resolveFuncs(e)
	return nodes
}

// resolveFuncs returns the declarations and literals of this package that a
// function expression can call, and the function object it names (possibly
// of another package; nil for values). Function values are looked up in
// the recorded stores; a call of a local function gives the closures it
// returns.
func (r *Result) resolveFuncs(e ast.Expr) ([]ast.Node, *types.Func) {
	e = ast.Unparen(e)
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.FuncLit:
		return []ast.Node{x}, nil
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	case *ast.IndexExpr:
		if tv := r.Info.Types[x.X]; !tv.IsValue() || isFuncInstance(r.Info, x.X) {
			return r.resolveFuncs(x.X) // explicit instantiation F[T]
		}
		if obj := r.holder(x.X); obj != nil {
			return r.holderFuncs(obj), nil
		}
		return nil, nil
	case *ast.IndexListExpr:
		return r.resolveFuncs(x.X)
	case *ast.CallExpr:
		return r.returnedFuncs(x), nil
	default:
		return nil, nil
	}
	switch obj := r.Info.Uses[id].(type) {
	case *types.Func:
		obj = obj.Origin()
		if fd := r.decls[obj]; fd != nil {
			return []ast.Node{fd}, obj
		}
		return nil, obj
	case *types.Var:
		return r.holderFuncs(obj), nil
	}
	return nil, nil
}

// isFuncInstance reports whether e names a generic function (so e[T] is an instantiation).
func isFuncInstance(info *types.Info, e ast.Expr) bool {
	_, ok := info.TypeOf(e).Underlying().(*types.Signature)
	return ok
}

// returnedFuncs returns the literals and declarations that the local
// functions called by call return (constructors of closures, such as
// makeStep(&buf)).
func (r *Result) returnedFuncs(call *ast.CallExpr) []ast.Node {
	if t := r.Info.TypeOf(call); t == nil || !holdsFunc(t) {
		return nil
	}
	values, _ := r.returns(call, 0)
	var out []ast.Node
	for _, v := range values {
		if r.returning[v.Func] {
			continue // recursion
		}
		r.returning[v.Func] = true
		out = append(out, r.funcExprs(v.Value)...)
		delete(r.returning, v.Func)
	}
	return out
}

// FuncBody returns the body of a *ast.FuncDecl or *ast.FuncLit.
func FuncBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Body
	case *ast.FuncLit:
		return n.Body
	}
	return nil
}

// implementations returns the method declarations of this package that a
// call of the interface method m can reach: the methods called m of the
// package's named types that implement m's interface.
func (r *Result) implementations(m *types.Func) []ast.Node {
	recv := m.Signature().Recv()
	if recv == nil {
		return nil
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if nodes, ok := r.impls[m]; ok {
		return nodes
	}
	var out []ast.Node
	scope := r.pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !types.Implements(t, iface) {
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(t, false, r.pkg, m.Name())
			if fn, ok := obj.(*types.Func); ok && r.decls[fn.Origin()] != nil {
				out = append(out, r.decls[fn.Origin()])
			}
			break
		}
	}
	r.impls[m] = out
	return out
}

// callees returns the local declarations and literals that call can
// run (through a name, a method, a function value, a table or an
// interface) and the function object it names.
func (r *Result) callees(call *ast.CallExpr) ([]ast.Node, *types.Func) {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := r.Info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			if m, ok := s.Obj().(*types.Func); ok && types.IsInterface(s.Recv()) {
				return r.implementations(m), m
			}
		}
	}
	return r.resolveFuncs(call.Fun)
}
