package realworld_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// site is a line of a corpus file (path relative to the corpus module).
type site struct {
	file string
	line int
}

func (s site) String() string { return fmt.Sprintf("%s:%d", s.file, s.line) }

// kind is what the runtime oracle checks at a site.
type kind int

const (
	convSite   kind = iota + 1 // a host conversion of an Array (tracedbool)
	effectSite                 // a statement with a host side effect (traceeffect)
	loopSite                   // a for or range statement (unrolledloop)
	callSite                   // a call of a jitted function (staticargs, shapechurn)
	jitSite                    // a jit.Jit call (staticargs)
)

// sites are the candidate sites of the corpus: every place where one of
// the analyzers could have something to say, found from the typed syntax
// independently of the analyzers.
type sites struct {
	dir   string
	kinds map[site][]kind
	// probes are the statements to instrument, per file: the probe id is
	// the site, and "<site> body" for the first statement of a loop body.
	probes map[string][]probe
	// library are the files of packages other than main.
	library map[string]bool
	// defined are, for a jit.Jit call, where the runtime says the function
	// it wraps is defined (its declaration, its literal, or for a method
	// value the call itself); bound are the jit.Jit calls of a method value
	// whose receiver the enclosing function makes, outside a loop of its
	// own (a new function on each run, as a closure over the run's own
	// variables is; in a loop, each iteration's wrapper compiles again).
	defined map[site][]string
	bound   map[site]bool
}

// probe inserts text at an offset of a file.
type probe struct {
	offset int
	text   string
}

const jitPath = "github.com/jitlint/jitlint/jit"

var hostConversions = []string{"Bool", "Item", "Int", "Float32s", "Float64s", "Int32s", "Int64s", "Bools"}

// findSites walks the corpus packages.
func findSites(dir string, pkgs []*packages.Package) (*sites, error) {
	s := &sites{dir: dir, kinds: map[site][]kind{}, probes: map[string][]probe{}, library: map[string]bool{}, defined: map[site][]string{}, bound: map[site]bool{}}
	var errs []string
	for _, pkg := range pkgs {
		for _, f := range pkg.Syntax {
			if err := s.file(pkg, f); err != nil {
				errs = append(errs, err.Error())
			}
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return s, nil
}

// file adds the sites of one file.
func (s *sites) file(pkg *packages.Package, f *ast.File) error {
	fset, info := pkg.Fset, pkg.TypesInfo
	name, err := filepath.Rel(s.dir, fset.File(f.Pos()).Name())
	if err != nil {
		return err
	}
	if pkg.Name != "main" {
		s.library[name] = true
	}
	at := func(p token.Pos) site { return site{name, fset.Position(p).Line} }
	var errs []string
	add := func(n ast.Node, k kind, stack []ast.Node) {
		st := at(n.Pos())
		stmt := listStmt(stack, n)
		if stmt == nil {
			if enclosingFunc(stack) != nil {
				errs = append(errs, fmt.Sprintf("%s: no statement to instrument (write the site as a statement of a block)", st))
			}
			return // package level: runs once, when the program starts
		}
		if !slices.Contains(s.kinds[st], k) {
			s.kinds[st] = append(s.kinds[st], k)
		}
		s.addProbe(fset, name, stmt.Pos(), st.String())
		if loop, ok := n.(ast.Stmt); ok && k == loopSite {
			s.addProbe(fset, name, loopBody(loop).Lbrace+1, st.String()+" body")
		}
	}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			add(n, loopSite, stack)
		case *ast.CallExpr:
			switch {
			case isHostConversion(info, n):
				add(n, convSite, stack)
			case isJittedCall(info, n):
				add(n, callSite, stack)
			case isJitCall(info, n):
				add(n, jitSite, stack)
				st := at(n.Pos())
				s.defined[st], s.bound[st] = definedAt(fset, info, n, stack)
			}
		case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.SendStmt:
			if cc, ok := stack[len(stack)-2].(*ast.CommClause); ok && cc.Comm == n {
				break // a select's case: no statement runs just when it is chosen
			}
			if isEffect(info, n.(ast.Stmt), stack) {
				add(n, effectSite, stack)
			}
		}
		return true
	})
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// addProbe instruments the statement at pos with a probe called id.
func (s *sites) addProbe(fset *token.FileSet, file string, pos token.Pos, id string) {
	text := fmt.Sprintf("jitlintProbe(%q); ", id)
	off := fset.Position(pos).Offset
	for _, p := range s.probes[file] {
		if p.offset == off && p.text == text {
			return
		}
	}
	s.probes[file] = append(s.probes[file], probe{off, text})
}

// listStmt returns the innermost statement of the stack (ending at n) that
// is an element of a statement list, where a probe can go before it.
func listStmt(stack []ast.Node, n ast.Node) ast.Stmt {
	for i := len(stack) - 1; i > 0; i-- {
		st, ok := stack[i].(ast.Stmt)
		switch st.(type) {
		case *ast.CaseClause, *ast.CommClause:
			ok = false // a case of a switch or a select: nothing goes before it
		}
		if !ok {
			continue
		}
		var list []ast.Stmt
		switch p := stack[i-1].(type) {
		case *ast.BlockStmt:
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		}
		if slices.Contains(list, st) {
			return st
		}
	}
	return nil
}

func loopBody(s ast.Stmt) *ast.BlockStmt {
	if f, ok := s.(*ast.ForStmt); ok {
		return f.Body
	}
	return s.(*ast.RangeStmt).Body
}

// isHostConversion reports whether call is x.Bool(), x.Item(), ... of a jit.Array.
func isHostConversion(info *types.Info, call *ast.CallExpr) bool {
	fn := calledFunc(info, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == jitPath && fn.Signature().Recv() != nil &&
		isNamed(fn.Signature().Recv().Type(), jitPath, "Array") && slices.Contains(hostConversions, fn.Name())
}

// isJittedCall reports whether call is f.Call(...) of a *jit.Func.
func isJittedCall(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Call" {
		return false
	}
	s := info.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal && isNamed(s.Recv(), jitPath, "Func")
}

// isJitOfNamed reports whether call is jit.Jit of a named function or a
// method (the same function whenever the call runs).
func isJitCall(info *types.Info, call *ast.CallExpr) bool {
	fn := calledFunc(info, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == jitPath && fn.Name() == "Jit" && len(call.Args) > 0
}

// definedAt says how the events record names the function a jit.Jit call
// wraps: where it is defined (file:line) for a named function or method
// (its declaration) and a literal (where it is written); for a method
// value, its name ("fn:(*T).M") or, for one of a generic type, the call
// itself. It also says whether a method value's receiver is made by the
// enclosing function, and the call is not in a loop there.
func definedAt(fset *token.FileSet, info *types.Info, call *ast.CallExpr, stack []ast.Node) ([]string, bool) {
	line := func(p token.Pos) string {
		pos := fset.Position(p)
		return fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
	}
	switch a := ast.Unparen(call.Args[0]).(type) {
	case *ast.FuncLit:
		return []string{line(a.Pos())}, false
	case *ast.Ident:
		if fn, ok := info.Uses[a].(*types.Func); ok {
			return []string{line(fn.Pos())}, false
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[a]; sel != nil && sel.Kind() == types.MethodVal {
			return []string{line(call.Pos()), "fn:" + methodName(sel.Obj().(*types.Func))}, madeIn(info, a.X, enclosingFunc(stack)) && !inLoop(stack)
		}
		if fn, ok := info.Uses[a.Sel].(*types.Func); ok {
			return []string{line(fn.Pos())}, false
		}
	}
	return []string{line(call.Pos())}, false
}

// methodName is a method's name as the runtime prints it: "(*T).M" or "T.M".
func methodName(m *types.Func) string {
	recv := m.Signature().Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		if n, ok := p.Elem().(*types.Named); ok {
			return "(*" + n.Obj().Name() + ")." + m.Name()
		}
	}
	if n, ok := recv.(*types.Named); ok {
		return n.Obj().Name() + "." + m.Name()
	}
	return m.Name()
}

// madeIn reports whether x is a variable that fn declares in its body (not
// a parameter): a value the run makes.
func madeIn(info *types.Info, x ast.Expr, fn ast.Node) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || fn == nil {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	var body *ast.BlockStmt
	switch f := fn.(type) {
	case *ast.FuncDecl:
		body = f.Body
	case *ast.FuncLit:
		body = f.Body
	}
	return body != nil && v.Pos() >= body.Pos() && v.Pos() < body.End()
}

// isEffect reports whether stmt has an effect outside the function it is
// in: a call of fmt's printing, log, print/println, time's clock, a
// math/rand draw from a shared source, sync/atomic; or an assignment to a
// variable declared outside the innermost enclosing function, or through
// a pointer, map or slice parameter or receiver; or a send on a channel
// that the function did not make.
func isEffect(info *types.Info, stmt ast.Stmt, stack []ast.Node) bool {
	fn := enclosingFunc(stack)
	if fn == nil {
		return false
	}
	if send, ok := stmt.(*ast.SendStmt); ok && !madeIn(info, send.Chan, fn) {
		return true // communication on a channel the function did not make
	}
	effect := false
	ast.Inspect(stmt, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			effect = effect || isEffectCall(info, n, fn)
		}
		return !effect
	})
	if effect {
		return true
	}
	var lhs []ast.Expr
	switch s := stmt.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			return false
		}
		lhs = s.Lhs
	case *ast.IncDecStmt:
		lhs = []ast.Expr{s.X}
	}
	for _, e := range lhs {
		root, path := rootIdent(e)
		if root == nil || root.Name == "_" {
			continue
		}
		v, ok := info.Uses[root].(*types.Var)
		if !ok {
			continue
		}
		if !within(fn, v.Pos()) {
			return true // a package variable or a captured one
		}
		if path && isParam(info, fn, v) && refType(v.Type()) {
			return true // a write through a parameter or receiver
		}
	}
	return false
}

// isEffectCall reports whether call has a host effect.
func isEffectCall(info *types.Info, call *ast.CallExpr, fn ast.Node) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, builtin := info.Uses[id].(*types.Builtin); builtin {
			return id.Name == "print" || id.Name == "println"
		}
	}
	f := calledFunc(info, call)
	if f == nil || f.Pkg() == nil {
		return false
	}
	name := f.Name()
	switch f.Pkg().Path() {
	case "fmt":
		return strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fprint")
	case "log", "log/slog", "sync/atomic":
		return true
	case "time":
		return name == "Now" || name == "Since" || name == "Until"
	case "math/rand", "math/rand/v2":
		if f.Signature().Recv() == nil {
			return !strings.HasPrefix(name, "New")
		}
		// A draw from a generator: an effect when the generator is shared.
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		root, _ := rootIdent(sel.X)
		if root == nil {
			return false
		}
		v, ok := info.Uses[root].(*types.Var)
		return ok && !within(fn, v.Pos())
	}
	return false
}

// enclosingFunc is the innermost function declaration or literal of stack.
func enclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}

// inLoop reports whether the innermost node of stack is in the body of a
// loop of its enclosing function.
func inLoop(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// within reports whether pos is inside fn's body (its locals; parameters
// and receivers are declared before the body).
func within(fn ast.Node, pos token.Pos) bool {
	return fn.Pos() <= pos && pos < fn.End()
}

// isParam reports whether v is a parameter or the receiver of fn.
func isParam(info *types.Info, fn ast.Node, v *types.Var) bool {
	var lists []*ast.FieldList
	switch f := fn.(type) {
	case *ast.FuncDecl:
		lists = []*ast.FieldList{f.Recv, f.Type.Params}
	case *ast.FuncLit:
		lists = []*ast.FieldList{f.Type.Params}
	}
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, field := range l.List {
			for _, n := range field.Names {
				if info.Defs[n] == v {
					return true
				}
			}
		}
	}
	return false
}

// refType reports whether writes through a value of type t are seen by the caller.
func refType(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Slice:
		return true
	}
	return false
}

// rootIdent returns the variable an lvalue writes into, and whether it
// goes through a selector, index or dereference.
func rootIdent(e ast.Expr) (*ast.Ident, bool) {
	path := false
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x, path
		case *ast.SelectorExpr:
			e, path = x.X, true
		case *ast.IndexExpr:
			e, path = x.X, true
		case *ast.StarExpr:
			e, path = x.X, true
		default:
			return nil, false
		}
	}
}

func calledFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr: // an explicit instantiation
		if sel, ok := f.X.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else if x, ok := f.X.(*ast.Ident); ok {
			id = x
		}
	}
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

// isNamed reports whether t (or what it points to) is the named type pkg.name.
func isNamed(t types.Type, pkg, name string) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg
}
