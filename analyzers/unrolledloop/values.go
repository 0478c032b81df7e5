package unrolledloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/types/typeutil"
)

// Bounds and lengths often reach a loop through a few hops: a helper's
// parameter (sequence(48)), a local copy (order := cfg.Order), a field of
// a configuration literal (cfg.Len with cfg := config{Len: 48}), an element
// of a fixed table (depths[i]), or a closure factory's parameter
// (jit.Jit(makePenalty(lossConfig{Order: 40}))). The resolver below
// follows them to constants.

// binding gives the parameters of a helper whose result is being followed
// the arguments of the call that runs it (sequence(48) binds n to 48).
type binding struct {
	params []*types.Var
	args   []ast.Expr
	outer  *binding
	depth  int
}

// bindCall binds the parameters of fn, a function or method of the
// package that call runs, to call's arguments, and a method's receiver to
// the value it is called on.
func (c *checker) bindCall(fn ast.Node, call *ast.CallExpr, outer *binding) *binding {
	b := &binding{params: c.r.Params(fn), args: call.Args, outer: outer, depth: outer.deeper()}
	if fd, ok := fn.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if recv, ok := c.r.Info.Defs[fd.Recv.List[0].Names[0]].(*types.Var); ok {
				b.params = append([]*types.Var{recv}, b.params...)
				b.args = append([]ast.Expr{sel.X}, b.args...)
			}
		}
	}
	return b
}

// maxHelperDepth bounds how deep the resolver follows helpers that call
// helpers; maxHops how many steps it takes from one expression to where
// its value comes from.
const (
	maxHelperDepth = 4
	maxHops        = 12
)

// arg returns the argument bound to e when e names a parameter of the
// helper, with the binding it is evaluated in.
func (b *binding) arg(info *types.Info, e ast.Expr) (ast.Expr, *binding) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	if a := b.argOf(info, id); a != nil {
		return a, b.outer
	}
	return nil, nil
}

// argOf returns the argument bound to the parameter id names, or nil.
func (b *binding) argOf(info *types.Info, id *ast.Ident) ast.Expr {
	if b == nil {
		return nil
	}
	for i, p := range b.params {
		if p != nil && info.Uses[id] == p && i < len(b.args) {
			return b.args[i]
		}
	}
	return nil
}

// deeper returns the depth of a binding made inside b.
func (b *binding) deeper() int {
	if b == nil {
		return 0
	}
	return b.depth + 1
}

// intValue returns the largest value that the integer expression e takes:
// traced.MaxInt, with parameters of helpers replaced by the arguments
// their calls pass, local variables with a single value, what the traced
// callers or jitted calls of a function pass to its parameters, fields of
// configuration literals, elements of fixed tables, results of helpers, and
// min and max of those.
func (c *checker) intValue(e ast.Expr, b *binding) (int64, bool) {
	return c.intValueAt(e, b, 0)
}

func (c *checker) intValueAt(e ast.Expr, b *binding, hops int) (int64, bool) {
	if c.exact {
		if n, ok := traced.ConstInt(c.r.Info, e); ok {
			return n, true
		}
	} else if n, ok := traced.MaxInt(c.r.Info, e, c.r.PathTo(e)); ok {
		return n, true
	}
	if hops > maxHops {
		return 0, false
	}
	if a, outer := b.arg(c.r.Info, e); a != nil {
		return c.intValueAt(a, outer, hops+1)
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr:
		srcs, ok := c.sources(e, b, hops)
		return c.largest(srcs, ok, hops)
	case *ast.IndexExpr:
		if call, ok := ast.Unparen(e.X).(*ast.CallExpr); ok {
			if name, recv := traced.ArrayMethod(c.r.Info, call); name == "Shape" {
				// x.Shape()[k], from the shapes that reach x.
				d, ok := c.dims(recv, b, hops+1)
				k, kok := c.intValueAt(e.Index, b, hops+1)
				if !ok || !kok || k < 0 || k >= int64(len(d)) {
					return 0, false
				}
				return d[k], true
			}
		}
		elts, ok := c.elements(e.X, b, hops)
		return c.largest(elts, ok, hops)
	case *ast.BinaryExpr:
		// Largest values of sizes and counts (not negative): x*10,
		// n+1, width/chunk, n-1 with a constant on the right.
		x, xok := c.intValueAt(e.X, b, hops+1)
		if !xok {
			return 0, false
		}
		if k, ok := traced.ConstInt(c.r.Info, e.Y); ok {
			switch e.Op {
			case token.SUB:
				return x - k, true
			case token.QUO:
				if k > 0 {
					return x / k, true
				}
			case token.SHL:
				if k >= 0 && k < 32 {
					return x << k, true
				}
			}
		}
		y, yok := c.intValueAt(e.Y, b, hops+1)
		switch {
		case !yok:
		case e.Op == token.ADD:
			return x + y, true
		case e.Op == token.MUL:
			return x * y, true
		}
	case *ast.CallExpr:
		if name, recv := traced.ArrayMethod(c.r.Info, e); name == "Size" || name == "Ndim" {
			d, ok := c.dims(recv, b, hops+1)
			if name == "Ndim" {
				return int64(len(d)), ok
			}
			size := int64(1)
			for _, n := range d {
				size *= n
			}
			return size, ok
		}
		switch {
		case traced.IsBuiltin(c.r.Info, e.Fun, "min"):
			found, least := false, int64(0)
			for _, a := range e.Args {
				n, ok := c.intValueAt(a, b, hops+1)
				if !ok && c.exact {
					return 0, false
				}
				if ok && (!found || n < least) {
					found, least = true, n
				}
			}
			return least, found // min is at most any known argument
		case traced.IsBuiltin(c.r.Info, e.Fun, "max"):
			var args []origin
			for _, a := range e.Args {
				args = append(args, origin{a, b})
			}
			return c.largest(args, true, hops)
		}
		srcs, ok := c.sources(e, b, hops)
		return c.largest(srcs, ok, hops)
	}
	return 0, false
}

// mostValue is the largest intValue of e under any of binds (a closure
// made by several calls of its factory) that is known.
func (c *checker) mostValue(e ast.Expr, binds []*binding) (most int64, ok bool) {
	for _, b := range binds {
		if n, nok := c.intValue(e, b); nok && (!ok || n > most) {
			most, ok = n, true
		}
	}
	return most, ok
}

// elements returns the elements of the fixed tables (literals) that x
// comes from.
func (c *checker) elements(x ast.Expr, b *binding, hops int) ([]origin, bool) {
	var elts []origin
	tables, ok := c.sources(x, b, hops)
	for _, t := range tables {
		lit, isLit := ast.Unparen(t.e).(*ast.CompositeLit)
		if !isLit {
			return nil, false
		}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			elts = append(elts, origin{elt, t.b})
		}
	}
	return elts, ok
}

// largest is the largest intValue of srcs, when all are known.
func (c *checker) largest(srcs []origin, ok bool, hops int) (int64, bool) {
	if !ok || len(srcs) == 0 {
		return 0, false
	}
	var most int64
	for i, s := range srcs {
		n, ok := c.intValueAt(s.e, s.b, hops+1)
		if !ok || c.exact && i > 0 && n != most {
			return 0, false
		}
		most = max(most, n)
	}
	return most, true
}

// exactValue is intValue when e has one value wherever it is evaluated (a
// constant, or sources that all agree), so that it can divide a bound.
func (c *checker) exactValue(e ast.Expr, b *binding) (int64, bool) {
	defer func(was bool) { c.exact = was }(c.exact)
	c.exact = true
	return c.intValue(e, b)
}

// tripUpper bounds the trip count of a counting loop whose step or
// offset is not a constant (for start := 0; start+width <= n; start +=
// width): the largest bound, less the start and offset, over the step.
func (c *checker) tripUpper(loop ast.Stmt, b *binding) (int64, bool) {
	f, ok := loop.(*ast.ForStmt)
	if !ok {
		return 0, false
	}
	init, ok := f.Init.(*ast.AssignStmt)
	cond, ok2 := f.Cond.(*ast.BinaryExpr)
	post, ok3 := f.Post.(*ast.AssignStmt)
	if !ok || !ok2 || !ok3 || len(init.Lhs) != 1 || len(init.Rhs) != 1 || post.Tok != token.ADD_ASSIGN || len(post.Rhs) != 1 {
		return 0, false
	}
	counter := c.r.Info.Defs[identOf(init.Lhs[0])]
	if counter == nil || c.r.Info.Uses[identOf(post.Lhs[0])] != counter {
		return 0, false
	}
	start, ok := traced.ConstInt(c.r.Info, init.Rhs[0])
	step, sok := c.exactValue(post.Rhs[0], b)
	if !ok || !sok || step <= 0 {
		return 0, false
	}
	lhs, offset := ast.Unparen(cond.X), int64(0)
	if sum, ok := lhs.(*ast.BinaryExpr); ok && sum.Op == token.ADD {
		off, ok := c.exactValue(sum.Y, b)
		if !ok {
			return 0, false
		}
		lhs, offset = ast.Unparen(sum.X), off
	}
	if c.r.Info.Uses[identOf(lhs)] != counter {
		return 0, false
	}
	bound, ok := c.intValue(cond.Y, b)
	if !ok {
		return 0, false
	}
	span := bound - offset - start
	switch cond.Op {
	case token.LSS:
		return max(0, (span+step-1)/step), true
	case token.LEQ:
		return max(0, span/step+1), true
	}
	return 0, false
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// origin is an expression that a value may come from, with the binding of
// the helper it is in.
type origin struct {
	e ast.Expr
	b *binding
}

// sources returns the expressions that e may stand for, one step back: the
// values of a variable (in the function that declares it; or, for a
// parameter of a traced function, what its calls pass), the value of a
// field (from the struct literals and field assignments the variable gets),
// the results of a helper (its parameters bound to the call's arguments).
// ok is false when some source is not known.
func (c *checker) sources(e ast.Expr, b *binding, hops int) ([]origin, bool) {
	if hops > maxHops {
		return nil, false
	}
	if a, outer := b.arg(c.r.Info, e); a != nil {
		return []origin{{a, outer}}, true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return []origin{{e, b}}, true
	case *ast.UnaryExpr:
		return c.sources(e.X, b, hops+1)
	case *ast.Ident:
		v, ok := c.r.Info.Uses[e].(*types.Var)
		if !ok {
			return nil, false
		}
		var out []origin
		values, elemWrites := c.r.DeclValues(v)
		for _, val := range values {
			if !c.carries(v, val) {
				out = append(out, origin{val, b})
			}
		}
		if x := c.r.RangedOver(e); x != nil && len(values) == 0 {
			return c.elements(x, b, hops+1) // for _, d := range s.Depths
		}
		if args, isParam := c.paramArgs(v); isParam {
			if args == nil {
				return nil, false // what comes in is not known
			}
			for _, a := range args {
				out = append(out, origin{a, nil})
			}
		}
		return out, len(out) > 0 && !elemWrites
	case *ast.SelectorExpr:
		return c.fieldSources(e.X, e.Sel.Name, b, hops+1)
	case *ast.CallExpr:
		if c.r.Info.Types[e.Fun].IsType() && len(e.Args) == 1 {
			return []origin{{e.Args[0], b}}, true // a conversion
		}
		if b.deeper() > maxHelperDepth {
			return nil, false
		}
		values, ok := c.r.Returns(e, 0)
		runs := c.dispatchedTo(e, b, hops)
		var out []origin
		for _, ret := range values {
			if runs == nil || runs[methodOf(c.r.Info, ret.Func)] {
				out = append(out, origin{ret.Value, c.bindCall(ret.Func, e, b)})
			}
		}
		return out, ok
	}
	return nil, false
}

// fieldSources returns the expressions that the field name of x may hold:
// its value in the struct literals that x comes from, and the values that
// assignments to x.name give it.
func (c *checker) fieldSources(x ast.Expr, name string, b *binding, hops int) ([]origin, bool) {
	if hops > maxHops {
		return nil, false
	}
	if id, ok := ast.Unparen(x).(*ast.Ident); ok && b.argOf(c.r.Info, id) == nil {
		if v, ok := c.r.Info.Uses[id].(*types.Var); ok {
			var out []origin
			for _, w := range c.r.FieldWrites(v, name) {
				out = append(out, origin{w, b})
			}
			more, ok := c.fieldsOf(x, name, b, hops)
			// A variable with no known value but field writes (var g graph;
			// g.adj = append(g.adj, …)) starts from the zero value.
			return append(out, more...), ok || len(out) > 0 && len(more) == 0
		}
	}
	return c.fieldsOf(x, name, b, hops)
}

// fieldsOf follows x to the struct literals it comes from and returns
// their values for the field name (none for a literal that leaves it zero).
func (c *checker) fieldsOf(x ast.Expr, name string, b *binding, hops int) ([]origin, bool) {
	srcs, ok := c.sources(x, b, hops+1)
	var out []origin
	for _, s := range srcs {
		if lit, isLit := ast.Unparen(s.e).(*ast.CompositeLit); isLit {
			if v := traced.FieldValue(c.r.Info, lit, name); v != nil {
				out = append(out, origin{v, s.b})
			}
			continue
		}
		more, mok := c.fieldSources(s.e, name, s.b, hops+1)
		ok = ok && mok
		out = append(out, more...)
	}
	return out, ok
}

// recvArgs returns the values that the traced method fn is called on, or
// jitted as a method value of (jit.Jit(t.inner) gives t), or nil when one
// is not known.
func (c *checker) recvArgs(fn *traced.Func) []ast.Expr {
	var out []ast.Expr
	for _, cs := range fn.CalledFrom {
		sel, ok := ast.Unparen(cs.Call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		out = append(out, sel.X)
	}
	for _, j := range fn.Jitted {
		if len(j.Call.Args) == 0 {
			return nil
		}
		sel, ok := ast.Unparen(j.Call.Args[0]).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		out = append(out, sel.X)
	}
	return out
}

// carries reports whether val, a value assigned to v, is the result of a
// jitted function called on v itself (fine = step.Call(fine)): a carry,
// whose static fields are those v already has.
func (c *checker) carries(v *types.Var, val ast.Expr) bool {
	call, ok := ast.Unparen(val).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Call" || !traced.IsFunc(c.r.Info.TypeOf(sel.X)) {
		return false
	}
	for _, a := range call.Args {
		if id, ok := ast.Unparen(a).(*ast.Ident); ok && c.r.Info.Uses[id] == v {
			return true
		}
	}
	return false
}

// paramArgs returns what the calls of a function of the package pass to
// its parameter (or receiver) v, and whether v is one: for a traced function, the calls from traced code
// (decode(cfg, enc, w) passes cfg) and the f.Call calls of its jitted
// wrappers (frame.Call(state{...})); for another function, its calls in
// the package (NewTrainer(scratch{…}, m)). The arguments are nil when some
// call passes it in a way not followed (f(xs...)).
func (c *checker) paramArgs(v *types.Var) (args []ast.Expr, isParam bool) {
	var calls []*ast.CallExpr
	i := -1
	for _, fn := range c.r.Funcs {
		if fn.Recv != nil && fn.Recv == v {
			return c.recvArgs(fn), true
		}
		if i = paramIndex(fn, v); i >= 0 {
			for _, cs := range fn.CalledFrom {
				calls = append(calls, cs.Call)
			}
			for _, j := range fn.Jitted {
				calls = append(calls, j.Calls...)
			}
			break
		}
	}
	if i < 0 {
		fd, index := c.declaringFunc(v)
		if fd == nil {
			return nil, false
		}
		i, calls = index, c.callsOf(c.r.Info.Defs[fd.Name])
	}
	for _, call := range calls {
		if i >= len(call.Args) || call.Ellipsis.IsValid() {
			return nil, true
		}
		args = append(args, call.Args[i])
	}
	return args, true
}

// declaringFunc returns the declaration that has v as a parameter, and
// v's index, or nil.
func (c *checker) declaringFunc(v *types.Var) (*ast.FuncDecl, int) {
	f := c.r.File(v.Pos())
	if f == nil {
		return nil, -1
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || v.Pos() < fd.Type.Pos() || v.Pos() >= fd.Type.End() {
			continue
		}
		for i, p := range traced.ParamVars(c.r.Info, fd.Type) {
			if p == v {
				return fd, i
			}
		}
	}
	return nil, -1
}

// callsOf returns the calls of the function obj in the package (memoised:
// the files are walked once).
func (c *checker) callsOf(obj types.Object) []*ast.CallExpr {
	if c.calls == nil {
		c.calls = map[types.Object][]*ast.CallExpr{}
		for _, f := range c.r.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if fn, ok := typeutil.Callee(c.r.Info, call).(*types.Func); ok {
						c.calls[fn] = append(c.calls[fn], call)
					}
				}
				return true
			})
		}
	}
	return c.calls[obj]
}

// dispatchedTo returns the methods that call, a call of an interface
// method (or of a type parameter's), can run when every value that
// reaches its receiver has a known concrete type: those types' methods,
// not every implementation in the package (t.cfg.Steps() with t.cfg from a
// short{…} literal runs short.Steps). It returns nil when call is not such
// a call or a type is not known.
func (c *checker) dispatchedTo(call *ast.CallExpr, b *binding, hops int) map[*types.Func]bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := c.r.Info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) {
		return nil
	}
	pkg := s.Obj().Pkg()
	runs := map[*types.Func]bool{}
	var walk func(e ast.Expr, b *binding, hops int) bool
	walk = func(e ast.Expr, b *binding, hops int) bool {
		if t := c.r.Info.TypeOf(e); t != nil && !types.IsInterface(t) {
			obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, sel.Sel.Name)
			fn, ok := obj.(*types.Func)
			if ok {
				runs[fn.Origin()] = true
			}
			return ok
		}
		srcs, ok := c.sources(e, b, hops+1)
		if !ok || len(srcs) == 0 {
			return false
		}
		for _, s := range srcs {
			if !walk(s.e, s.b, hops+1) {
				return false
			}
		}
		return true
	}
	if !walk(sel.X, b, hops) {
		return nil
	}
	return runs
}

// methodOf returns the method that fn declares, or nil.
func methodOf(info *types.Info, fn ast.Node) *types.Func {
	if fd, ok := fn.(*ast.FuncDecl); ok && fd.Recv != nil {
		m, _ := info.Defs[fd.Name].(*types.Func)
		return m
	}
	return nil
}
