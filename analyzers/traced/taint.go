package traced

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// solve propagates traced values through assignments and calls until nothing changes.
func (b *builder) solve() {
	for {
		before := len(b.tainted) + len(b.Funcs)
		for i := 0; i < len(b.Funcs); i++ {
			fn := b.Funcs[i]
			for p := range b.traced[fn] {
				if p < len(fn.Params) && fn.Params[p] != nil {
					b.tainted[fn.Params[p]] = true
				}
			}
			b.sweep(fn)
		}
		if len(b.tainted)+len(b.Funcs) == before {
			break
		}
	}
	sort.SliceStable(b.Funcs, func(i, j int) bool { return b.Funcs[i].Node.Pos() < b.Funcs[j].Node.Pos() })
}

// sweep marks the variables of fn that receive traced values and the
// functions fn passes traced values to.
func (b *builder) sweep(fn *Func) {
	b.markGuards(fn.Body)
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if b.dead[n] {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if other := b.byNode[n]; other != nil && other != fn {
				return true // its parameters are handled as its own Func
			}
			for _, field := range n.Type.Params.List {
				for _, id := range field.Names {
					if v := b.Info.Defs[id]; v != nil && ContainsArray(v.Type()) {
						b.tainted[v] = true
					}
				}
			}
		case *ast.AssignStmt:
			b.assign(n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			b.assign(specNames(n), n.Values)
		case *ast.RangeStmt:
			if n.Value != nil && b.IsTraced(n.X) {
				b.taintLHS(n.Value)
			}
		case *ast.CallExpr:
			b.call(fn, n)
		}
		return true
	})
}

// assign marks the left-hand sides that receive traced values.
func (b *builder) assign(lhs, rhs []ast.Expr) {
	if len(lhs) == len(rhs) {
		for i := range lhs {
			if b.IsTraced(rhs[i]) {
				b.taintLHS(lhs[i])
			}
		}
		return
	}
	if len(rhs) == 1 && b.IsTraced(rhs[0]) {
		for _, l := range lhs {
			b.taintLHS(l)
		}
	}
}

// taintLHS marks the variable at the root of an assignment target, if it can hold an array.
func (b *builder) taintLHS(e ast.Expr) {
	t := b.Info.TypeOf(e)
	if t == nil || !(ContainsArray(t) || types.IsInterface(t)) {
		return
	}
	if id := RootIdent(e); id != nil {
		if obj := b.objOf(id); obj != nil {
			if _, isVar := obj.(*types.Var); isVar {
				b.tainted[obj] = true
			}
		}
	}
}

// rootIdent returns the variable at the root of x, x.f, x[i], *x.
func RootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// call makes the local functions that traced code calls traced (every
// operation they stage goes into the trace, whatever their arguments), with
// the parameters that receive traced values traced, and records the calls
// into other packages with traced arguments.
func (b *builder) call(in *Func, call *ast.CallExpr) {
	if JitFunc(b.Info, call) != "" {
		return
	}
	if name, _ := ArrayMethod(b.Info, call); name != "" {
		return
	}
	set := map[int]bool{}
	var params []int
	for i, a := range call.Args {
		if b.IsTraced(a) {
			// Argument i is parameter i, for methods too (the receiver is not counted).
			set[i] = true
			params = append(params, i)
		}
	}
	nodes, obj := b.callees(call)
	for _, node := range nodes {
		why := fmt.Sprintf("%s is traced because traced code calls it here", fnName(node))
		if len(params) > 0 {
			why = fmt.Sprintf("%s is traced because traced code calls it here with traced arguments", fnName(node))
		}
		fn := b.addFunc(node, call.Pos(), why, set, nil)
		if !fn.RecvOutlives && b.recvOutlives(in, call) {
			fn.RecvOutlives = true
		}
	}
	if len(nodes) == 0 && obj != nil && obj.Pkg() != nil && obj.Pkg() != b.pkg && !IsJitPath(obj.Pkg().Path()) {
		b.addExternal(call, obj, params, in)
	}
}

// recvOutlives reports whether call is a method call whose receiver
// outlives the trace: a package variable, a variable captured from outside
// the outermost traced function, or the receiver of a method whose
// receiver outlives it.
func (b *builder) recvOutlives(in *Func, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || b.Info.Selections[sel] == nil || b.Info.Selections[sel].Kind() != types.MethodVal {
		return false
	}
	id := RootIdent(sel.X)
	if id == nil {
		return false
	}
	v, ok := b.Info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil {
		return false
	}
	if v.Parent() == v.Pkg().Scope() {
		return true
	}
	if in.RecvOutlives && in.Recv == v {
		return true
	}
	outer := b.Outermost(call.Pos())
	return outer != nil && !(outer.Node.Pos() <= v.Pos() && v.Pos() < outer.Node.End())
}

// IsTraced reports whether e is a traced value.
func (r *Result) IsTraced(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		if obj := r.Info.Uses[e]; obj != nil {
			return r.tainted[obj]
		}
		return r.tainted[r.Info.Defs[e]]
	case *ast.ParenExpr:
		return r.IsTraced(e.X)
	case *ast.StarExpr:
		return r.IsTraced(e.X)
	case *ast.UnaryExpr:
		return r.IsTraced(e.X)
	case *ast.BinaryExpr:
		return r.IsTraced(e.X) || r.IsTraced(e.Y)
	case *ast.SelectorExpr:
		sel := r.Info.Selections[e]
		if sel == nil {
			return r.tainted[r.Info.Uses[e.Sel]]
		}
		return sel.Kind() == types.FieldVal && !staticField(sel) &&
			ContainsArray(sel.Obj().Type()) && r.IsTraced(e.X)
	case *ast.IndexExpr:
		if tv := r.Info.Types[e]; !tv.IsValue() {
			return false
		}
		return ContainsArray(r.Info.TypeOf(e)) && r.IsTraced(e.X)
	case *ast.SliceExpr:
		return r.IsTraced(e.X)
	case *ast.TypeAssertExpr:
		return r.IsTraced(e.X)
	case *ast.KeyValueExpr:
		return r.IsTraced(e.Value)
	case *ast.CompositeLit:
		for _, elt := range e.Elts {
			if r.IsTraced(elt) {
				return true
			}
		}
	case *ast.CallExpr:
		return r.callTraced(e)
	}
	return false
}

// callTraced reports whether a call gives a traced value.
func (r *Result) callTraced(call *ast.CallExpr) bool {
	if tv := r.Info.Types[call.Fun]; tv.IsType() {
		return len(call.Args) == 1 && r.IsTraced(call.Args[0])
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, builtin := r.Info.Uses[id].(*types.Builtin); builtin {
			return id.Name == "append" && r.AnyTraced(call.Args)
		}
	}
	// Omnistaging: inside a trace every jit operation is staged, also on
	// concrete, captured or global arrays, so its result is traced.
	if name, _ := ArrayMethod(r.Info, call); name != "" {
		return stagingMethods[name]
	}
	t := r.Info.TypeOf(call)
	if t == nil || !(ContainsArray(t) || types.IsInterface(t)) {
		return false
	}
	if name := JitFunc(r.Info, call); name != "" {
		return stagingFuncs[name] && !concreteCall(name, call)
	}
	if r.AnyTraced(call.Args) || r.callOps(call) > 0 {
		return true
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := r.Info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			return r.IsTraced(sel.X)
		}
	}
	return false
}

// AnyTraced reports whether one of es holds a traced value.
func (r *Result) AnyTraced(es []ast.Expr) bool {
	for _, e := range es {
		if r.IsTraced(e) {
			return true
		}
	}
	return false
}

// staticField reports whether a field selection reads a `jit:"static"` field.
func staticField(sel *types.Selection) bool {
	t := sel.Recv()
	idx := sel.Index()
	for k, i := range idx {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return false
		}
		if k == len(idx)-1 {
			return IsStaticTag(st.Tag(i))
		}
		t = st.Field(i).Type()
	}
	return false
}

// Outermost returns the outermost traced function whose body contains pos.
func (r *Result) Outermost(pos token.Pos) *Func {
	var best *Func
	for _, fn := range r.Funcs {
		if fn.Body.Pos() <= pos && pos < fn.Body.End() {
			if best == nil || fn.Body.Pos() < best.Body.Pos() {
				best = fn
			}
		}
	}
	return best
}
