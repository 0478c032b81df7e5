package traced

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// builder computes a Result.
type builder struct {
	*Result
	traced map[*Func]map[int]bool // parameters that receive traced values
	seen   map[*ast.CallExpr]bool // external calls already recorded
}

// Build computes the traced functions and values of a package. It returns
// nil when the package does not import the jit package.
func Build(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info) *Result {
	return build(fset, files, pkg, info, nil)
}

// build is Build with an importer of other packages' StagesFacts (nil: none).
func build(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, importFact func(*types.Func, analysis.Fact) bool) *Result {
	if !ImportsJit(pkg) {
		return nil
	}
	b := newBuilder(fset, files, pkg, info)
	b.importFact = importFact
	b.findRoots()
	b.solve()
	b.findJittedCalls()
	return b.Result
}

// BuildFrom computes the traced values of decl as if only its parameter
// param were traced (and of the functions of the package it passes traced
// values to). Analyzers use it to summarise a function for other packages.
func (r *Result) BuildFrom(pkg *types.Package, decl *ast.FuncDecl, param int) *Result {
	b := newBuilder(r.Fset, r.Files, pkg, r.Info)
	b.importFact = r.importFact
	fn := b.addFunc(decl, decl.Pos(), "summary", map[int]bool{param: true}, nil)
	fn.Why = fmt.Sprintf("%s is traced when its parameter %d is", fn.Name, param)
	b.solve()
	return b.Result
}

func newBuilder(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info) *builder {
	b := &builder{
		Result: &Result{
			Info: info, Fset: fset, Files: files,
			tainted:   map[types.Object]bool{},
			byNode:    map[ast.Node]*Func{},
			dead:      map[ast.Node]bool{},
			pkg:       pkg,
			decls:     map[*types.Func]*ast.FuncDecl{},
			stored:    map[types.Object][]ast.Expr{},
			aliases:   map[types.Object][]types.Object{},
			funcs:     map[types.Object][]ast.Node{},
			impls:     map[*types.Func][]ast.Node{},
			returning: map[ast.Node]bool{},
			opsMemo:   map[ast.Node]int{},
			extOps:    map[*types.Func]int{},
		},
		traced: map[*Func]map[int]bool{},
		seen:   map[*ast.CallExpr]bool{},
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
					b.decls[obj] = fd
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			b.recordFuncs(n)
			return true
		})
	}
	return b
}

// specNames returns the names of a var or const spec as the left-hand
// side of an assignment.
func specNames(s *ast.ValueSpec) []ast.Expr {
	lhs := make([]ast.Expr, len(s.Names))
	for i, id := range s.Names {
		lhs[i] = id
	}
	return lhs
}

func (r *Result) objOf(id *ast.Ident) types.Object {
	if obj := r.Info.Defs[id]; obj != nil {
		return obj
	}
	return r.Info.Uses[id]
}

// addFunc records node (a *ast.FuncDecl or *ast.FuncLit) as traced, with the
// given parameters traced (nil: all non-static array parameters).
func (b *builder) addFunc(node ast.Node, origin token.Pos, why string, params map[int]bool, static []int) *Func {
	fn := b.byNode[node]
	if fn == nil {
		fn = &Func{Node: node, Origin: origin, Why: why, Static: map[*types.Var]int{}}
		var ftype *ast.FuncType
		switch n := node.(type) {
		case *ast.FuncDecl:
			fn.Body, fn.Name, ftype = n.Body, n.Name.Name, n.Type
			if n.Recv != nil && len(n.Recv.List) > 0 && len(n.Recv.List[0].Names) > 0 {
				fn.Recv, _ = b.Info.Defs[n.Recv.List[0].Names[0]].(*types.Var)
			}
		case *ast.FuncLit:
			fn.Body, fn.Name, ftype = n.Body, "func literal", n.Type
		}
		fn.Params = ParamVars(b.Info, ftype)
		for _, i := range static {
			if i >= 0 && i < len(fn.Params) && fn.Params[i] != nil {
				fn.Static[fn.Params[i]] = i
			}
		}
		b.byNode[node] = fn
		b.Funcs = append(b.Funcs, fn)
		b.traced[fn] = map[int]bool{}
	}
	if params == nil {
		for i, v := range fn.Params {
			if _, static := fn.Static[v]; v != nil && !static && ContainsArray(v.Type()) {
				b.traced[fn][i] = true
			}
		}
	}
	for i := range params {
		b.traced[fn][i] = true
	}
	return fn
}

// ParamVars returns the parameters of a function type in order (nil for
// unnamed ones).
func ParamVars(info *types.Info, ftype *ast.FuncType) []*types.Var {
	var params []*types.Var
	for _, field := range ftype.Params.List {
		if len(field.Names) == 0 {
			params = append(params, nil)
		}
		for _, id := range field.Names {
			v, _ := info.Defs[id].(*types.Var)
			params = append(params, v)
		}
	}
	return params
}

// findRoots records the functions given to jit entry points and those marked //jit:traced.
func (b *builder) findRoots() {
	for _, f := range b.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && hasTracedDirective(fd.Doc) {
				b.addFunc(fd, fd.Pos(), fd.Name.Name+" is marked //jit:traced", nil, nil).Entry = MarkedTraced
			}
		}
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				b.entryPoint(call, stack)
			}
			return true
		})
	}
}

// hasTracedDirective reports whether a doc comment has a //jit:traced line.
func hasTracedDirective(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.TrimSpace(c.Text) == "//jit:traced" {
			return true
		}
	}
	return false
}

// entryPoint handles a call of a jit entry point (jit.Jit, jit.Cond, ...).
func (b *builder) entryPoint(call *ast.CallExpr, stack []ast.Node) {
	name := JitFunc(b.Info, call)
	if !tracingEntryPoints[name] {
		return
	}
	var static []int
	var j *Jitted
	if name == "Jit" || name == "MakeJaxpr" {
		var opt *ast.CallExpr
		var known bool
		static, opt, known = b.staticArgnums(call)
		if name == "Jit" {
			j = &Jitted{Call: call, Var: assignedVar(b.Info, call, stack), Static: static, StaticOpt: opt, StaticKnown: known}
			b.Jitted = append(b.Jitted, j)
		}
	}
	why := fmt.Sprintf("traced by this jit.%s call", name)
	for i, arg := range call.Args {
		if wrappers[name] && i > 0 {
			break
		}
		var fns []ast.Expr
		if lit, ok := ast.Unparen(arg).(*ast.CompositeLit); ok && name == "Switch" {
			fns = lit.Elts
		} else if t := b.Info.TypeOf(arg); t != nil && holdsFunc(t) {
			fns = []ast.Expr{arg}
		}
		for _, e := range fns {
			nodes, obj := b.resolveFuncs(e)
			if j != nil {
				j.TargetObj = obj
			}
			for _, node := range nodes {
				fn := b.addFunc(node, call.Pos(), fnName(node)+" is "+why, nil, static)
				if fn.Entry == "" {
					fn.Entry = name
				}
				if !slices.Contains(fn.EntryCalls, call) {
					fn.EntryCalls = append(fn.EntryCalls, call)
				}
				if isMethodValue(b.Info, e) {
					fn.RecvOutlives = true
				}
				if j != nil {
					j.Targets = append(j.Targets, fn)
					fn.Jitted = append(fn.Jitted, j)
				}
			}
			if j != nil && len(j.Targets) == 1 {
				j.Target = j.Targets[0]
			}
			if len(nodes) == 0 && obj != nil && obj.Pkg() != nil && obj.Pkg() != b.pkg && !IsJitPath(obj.Pkg().Path()) {
				b.addExternal(call, obj, arrayParams(obj, static), nil)
			}
		}
	}
}

// isMethodValue reports whether e is a method value x.M (a bound receiver).
func isMethodValue(info *types.Info, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := info.Selections[sel]
	return s != nil && s.Kind() == types.MethodVal
}

func fnName(node ast.Node) string {
	if fd, ok := node.(*ast.FuncDecl); ok {
		return fd.Name.Name
	}
	return "the function literal"
}

// arrayParams returns the indexes of the non-static parameters of fn that hold arrays.
func arrayParams(fn *types.Func, static []int) []int {
	var out []int
	params := fn.Signature().Params()
	for i := 0; i < params.Len(); i++ {
		if !slices.Contains(static, i) && ContainsArray(params.At(i).Type()) {
			out = append(out, i)
		}
	}
	return out
}

// assignedVar returns the variable that call's value is assigned to, if any.
func assignedVar(info *types.Info, call *ast.CallExpr, stack []ast.Node) types.Object {
	if len(stack) == 0 {
		return nil
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == len(p.Rhs) {
			for i, r := range p.Rhs {
				if id, ok := p.Lhs[i].(*ast.Ident); ok && r == call {
					if obj := info.Defs[id]; obj != nil {
						return obj
					}
					return info.Uses[id]
				}
			}
		}
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if v == call && i < len(p.Names) {
				return info.Defs[p.Names[i]]
			}
		}
	}
	return nil
}

// addExternal records a call into another package with traced arguments.
func (b *builder) addExternal(call *ast.CallExpr, callee *types.Func, params []int, in *Func) {
	if len(params) == 0 || b.seen[call] {
		return
	}
	b.seen[call] = true
	b.External = append(b.External, &ExternalCall{Pos: call.Pos(), End: call.End(), Callee: callee, Params: params, In: in})
}

// findJittedCalls records the f.Call(...) calls of each jitted function,
// and the calls made through f.Call passed to a function of the package.
func (b *builder) findJittedCalls() {
	byVar := map[types.Object]*Jitted{}
	byCall := map[*ast.CallExpr]*Jitted{}
	for _, j := range b.Jitted {
		if j.Var != nil {
			byVar[j.Var] = j
		}
		byCall[j.Call] = j
	}
	jittedOf := func(sel *ast.SelectorExpr) *Jitted {
		if sel.Sel.Name != "Call" {
			return nil
		}
		switch x := ast.Unparen(sel.X).(type) {
		case *ast.Ident:
			return byVar[b.Info.Uses[x]]
		case *ast.CallExpr:
			return byCall[x]
		}
		return nil
	}
	for _, f := range b.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				if j := jittedOf(sel); j != nil {
					j.Calls = append(j.Calls, call)
				} else if b.isFuncCall(sel) {
					b.OtherCalls = append(b.OtherCalls, call)
				}
			}
			for i, arg := range call.Args {
				if sel, ok := ast.Unparen(arg).(*ast.SelectorExpr); ok {
					if j := jittedOf(sel); j != nil {
						b.indirect(j, call, i)
					}
				}
			}
			return true
		})
	}
}

// isFuncCall reports whether sel selects the Call method of a jit.Func.
func (b *builder) isFuncCall(sel *ast.SelectorExpr) bool {
	return sel.Sel.Name == "Call" && IsFunc(b.Info.TypeOf(sel.X))
}

// indirect records the calls that the function called by outer makes
// through its parameter i, which receives j's Call.
func (b *builder) indirect(j *Jitted, outer *ast.CallExpr, i int) {
	nodes, _ := b.resolveFuncs(outer.Fun)
	if len(nodes) != 1 {
		return
	}
	fd, ok := nodes[0].(*ast.FuncDecl)
	if !ok {
		return
	}
	params := ParamVars(b.Info, fd.Type)
	if i >= len(params) || params[i] == nil {
		return
	}
	param := params[i]
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if inner, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(inner.Fun).(*ast.Ident); ok && b.Info.Uses[id] == param {
				j.Indirect = append(j.Indirect, &IndirectCall{Outer: outer, Inner: inner, Callee: fd})
			}
		}
		return true
	})
}
