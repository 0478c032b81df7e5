package traced

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Result is what the traced analyzer computes for one package: the value
// flow of its code and the contexts in which its functions run inside a
// trace. The analyzers are queries on it; a nil *Result means the package
// does not import jit. Queries are safe for concurrent use (the analyzers
// of a suite share one Result).
type Result struct {
	// Fset, Info and Files are the package's file set, type information
	// and files.
	Fset  *token.FileSet
	Info  *types.Info
	Files []*ast.File
	// Funcs are the traced functions, in source order: what the language
	// server previews and highlights.
	Funcs []*Func

	mu       sync.Mutex
	flow     *flow
	contexts []*Context
	calls    map[token.Pos]*ast.CallExpr // by the position of their Lparen
	byNode   map[ast.Node]*Func
}

// Func is a function (declaration or literal) that runs inside a trace.
type Func struct {
	// Node is the *ast.FuncDecl or *ast.FuncLit.
	Node ast.Node
	// Name describes the function in messages ("F", "func literal").
	Name string
	// Entry is the jit entry point it is given to ("Jit", "MakeJaxpr",
	// "Vmap", "Cond", ...), MarkedTraced, or "" when traced code calls it.
	Entry string
	// EntryCalls are the calls of jit entry points that take the function.
	EntryCalls []*ast.CallExpr
	// Static are the static argument indexes of the jit.Jit calls of it.
	Static []int
	// Origin is the position that made it traced and Why explains it.
	Origin token.Pos
	Why    string
}

// MarkedTraced is Func.Entry for a function marked //jit:traced.
const MarkedTraced = "//jit:traced"

// Build analyses a package without facts of other packages (nil when it
// does not import jit), leaving out the declarations that hold one of the
// package's type errors.
func Build(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, typeErrors ...types.Error) (r *Result) {
	if len(typeErrors) > 0 {
		// What is left of an ill-typed package may still not build: then
		// nothing is known of it until it is fixed.
		defer func() {
			if recover() != nil {
				r = nil
			}
		}()
	}
	return build(fset, wellTyped(fset, files, typeErrors), pkg, info, nil)
}

func build(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, importFact func(*types.Func, analysis.Fact) bool) *Result {
	if !jitapi.ImportsJit(pkg) {
		return nil
	}
	r := &Result{Fset: fset, Info: info, Files: files, calls: map[token.Pos]*ast.CallExpr{}, byNode: map[ast.Node]*Func{}}
	r.flow = newFlow(fset, files, pkg, info, importFact)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				r.calls[c.Lparen] = c
			}
			return true
		})
	}
	all, roots := r.flow.findContexts()
	r.contexts = append(all, r.flow.markedContexts()...)
	r.collectFuncs(roots)
	return r
}

// markedContexts are the contexts of the functions marked //jit:traced:
// their array parameters traced.
func (f *flow) markedContexts() []*Context {
	var out []*Context
	for _, fn := range f.funcs {
		decl, ok := fn.Syntax().(*ast.FuncDecl)
		if !ok || !hasTracedDirective(decl.Doc) || fn.Origin() != nil {
			continue
		}
		r := &Root{Entry: MarkedTraced, Fn: fn, StaticKnown: true}
		out = append(out, f.rootContext(r))
	}
	return out
}

// collectFuncs lists the traced functions for the language server.
func (r *Result) collectFuncs(roots []*Context) {
	add := func(c *Context) {
		fn := c.Fn
		for fn.Origin() != nil {
			fn = fn.Origin()
		}
		syntax := fn.Syntax()
		if syntax == nil {
			return
		}
		f := r.byNode[syntax]
		if f == nil {
			f = &Func{Node: syntax, Name: funcName(syntax)}
			r.byNode[syntax] = f
			r.Funcs = append(r.Funcs, f)
			if c.Parent == nil && c.Root.Call != nil {
				f.Origin = c.Root.Call.Pos()
				f.Why = fmt.Sprintf("%s is traced by this jit.%s call", f.Name, c.Root.Entry)
			} else if c.Call != nil {
				f.Origin = c.Call.Pos()
				f.Why = fmt.Sprintf("%s is traced because traced code calls it here", f.Name)
			}
		}
		if c.Parent == nil {
			if f.Entry == "" {
				f.Entry = c.Root.Entry
			}
			// The call that takes the function: the root's, or of a
			// transformed function the innermost transformation's
			// (jit.Vmap(jit.Grad(F)): the Grad).
			call := r.callAt(c.Root.Call)
			if ts := c.Root.Transforms; len(ts) > 0 {
				call = nil
				if site, ok := ts[0].Site.(ssa.CallInstruction); ok {
					call = r.callAt(site)
				}
			}
			if call != nil && !containsCall(f.EntryCalls, call) {
				f.EntryCalls = append(f.EntryCalls, call)
			}
			for _, i := range c.Root.Static {
				if !containsInt(f.Static, i) {
					f.Static = append(f.Static, i)
				}
			}
		}
	}
	for _, c := range r.contexts {
		add(c)
	}
	for _, c := range roots {
		add(c) // roots the walk merged with an equal one: their entry calls
	}
	sort.SliceStable(r.Funcs, func(i, j int) bool { return r.Funcs[i].Node.Pos() < r.Funcs[j].Node.Pos() })
}

func containsCall(cs []*ast.CallExpr, c *ast.CallExpr) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// displayName names fn in messages: a function's or method's name, or
// "the function literal at" its position.
func (r *Result) displayName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		return "the function literal at " + r.Where(fn.Pos())
	}
	return strings.TrimSuffix(fn.Name(), "$bound")
}

func funcName(n ast.Node) string {
	if fd, ok := n.(*ast.FuncDecl); ok {
		return fd.Name.Name
	}
	return "func literal"
}

// FuncOf returns the traced function of a *ast.FuncDecl or *ast.FuncLit, or nil.
func (r *Result) FuncOf(n ast.Node) *Func { return r.byNode[n] }

// callAt returns the call expression of an SSA call instruction.
func (r *Result) callAt(instr ssa.Instruction) *ast.CallExpr {
	if instr == nil {
		return nil
	}
	return r.calls[instr.Pos()]
}

// File returns the file that contains pos.
func (r *Result) File(pos token.Pos) *ast.File {
	for _, f := range r.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// Where returns "file.go:line" for pos.
func (r *Result) Where(pos token.Pos) string {
	p := r.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// related is the related information that points at what made a context's
// trace: its root's entry point call.
func (r *Result) related(c *Context) []analysis.RelatedInformation {
	for c.Parent != nil {
		c = c.Parent
	}
	if c.Root.Call == nil {
		return nil
	}
	fn := c.Fn
	for fn.Origin() != nil {
		fn = fn.Origin()
	}
	name := funcName(fn.Syntax())
	if fn.Syntax() == nil {
		// A method expression's or method value's wrapper: the method's name.
		name = strings.TrimSuffix(strings.TrimSuffix(fn.Name(), "$thunk"), "$bound")
	}
	pos := c.Root.Call.Pos()
	if call := r.callAt(c.Root.Call); call != nil {
		pos = call.Pos()
	}
	return []analysis.RelatedInformation{{Pos: pos, End: pos, Message: fmt.Sprintf("%s is traced by this jit.%s call", name, c.Root.Entry)}}
}

// IsTraced reports whether e, an expression of traced code, holds a traced
// value in some context (for the language server's highlighting).
func (r *Result) IsTraced(e ast.Expr) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.contexts {
		fn := c.Fn
		if fn.Syntax() == nil || e.Pos() < fn.Syntax().Pos() || e.End() > fn.Syntax().End() {
			continue
		}
		v, isAddr := fn.ValueForExpr(e)
		if id, ok := e.(*ast.Ident); ok && v == nil {
			v = paramOf(fn, r.Info.Defs[id]) // a parameter where it is declared
		}
		if v == nil {
			continue
		}
		val := c.value(v, nil)
		if isAddr {
			val = r.flow.load(val) // a variable kept in memory: what it holds
		}
		if r.holdsTraced(val, c, 0) {
			return true
		}
	}
	return false
}

// holdsTraced reports whether e is traced or holds a traced value (a
// pytree: a struct with a traced field, a pointer to one, a slice of them).
func (r *Result) holdsTraced(e *Expr, c *Context, depth int) bool {
	if r.flow.maybeTraced(e, c) {
		return true
	}
	if depth > 3 {
		return false
	}
	switch e.Kind {
	case kStruct:
		for _, f := range e.Args {
			if f != nil && r.holdsTraced(f, c, depth+1) {
				return true
			}
		}
	case kPtr:
		if e.Site == "value" {
			return r.holdsTraced(e.Args[0], c, depth+1)
		}
	case kSeq:
		if e.Tr != nil {
			return r.holdsTraced(e.Tr, c, depth+1)
		}
	}
	return false
}

// paramOf is the parameter of fn declared as obj (nil when none is).
func paramOf(fn *ssa.Function, obj types.Object) ssa.Value {
	if obj == nil {
		return nil
	}
	for _, p := range fn.Params {
		if p.Object() == obj {
			return p
		}
	}
	return nil
}

// IsStaticField reports whether sel selects a `jit:"static"` field of a
// struct (for the language server's highlighting): part of the cache key
// of the jitted functions that receive the struct.
func (r *Result) IsStaticField(sel *ast.SelectorExpr) bool {
	s := r.Info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return false
	}
	t := s.Recv()
	for _, i := range s.Index() {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return false
		}
		if jitapi.IsStaticTag(st.Tag(i)) {
			return true
		}
		t = st.Field(i).Type()
	}
	return false
}

// hasTracedDirective reports whether a doc comment has a //jit:traced line.
func hasTracedDirective(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if c.Text == "//jit:traced" {
			return true
		}
	}
	return false
}

// sortByPos sorts xs by the position pos gives.
func sortByPos[T any](xs []T, pos func(T) token.Pos) {
	sort.SliceStable(xs, func(i, j int) bool { return pos(xs[i]) < pos(xs[j]) })
}

// CalleeName is pkg.F or pkg.T.M.
func CalleeName(fn *types.Func) string {
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		if n, ok := derefNamed(recv.Type()); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}

// AnyTraced reports whether one of es holds a traced value (see IsTraced).
func (r *Result) AnyTraced(es []ast.Expr) bool {
	for _, e := range es {
		if r.IsTraced(e) {
			return true
		}
	}
	return false
}
