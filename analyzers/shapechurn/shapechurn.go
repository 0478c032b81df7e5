package shapechurn

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docGo string

// Analyzer is the shapechurn analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh shapechurn analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewAnalyzer("shapechurn", docGo, tracer, func(pass *analysis.Pass, r *traced.Result) {
		for _, j := range r.Jitted {
			for _, call := range j.Calls {
				checkCall(r, j, call, pass.Report)
			}
		}
		for _, call := range r.OtherCalls {
			checkCall(r, nil, call, pass.Report)
		}
	})
}

// checkCall reports the array arguments of call whose shape changes in an
// enclosing loop. j is the jit.Jit call that made the function, or nil when
// it is not known (a wrapper from a cache: reg.get(name).Call(x)); arrays
// are never static arguments, so it only names the parameters.
func checkCall(r *traced.Result, j *traced.Jitted, call *ast.CallExpr, report func(analysis.Diagnostic)) {
	loops := traced.Loops(r.PathTo(call))
	if len(loops) == 0 {
		return
	}
	for k, arg := range call.Args {
		if !traced.IsArray(r.Info.TypeOf(arg)) {
			continue
		}
		for _, loop := range loops {
			s := &shapes{r: r, loop: traced.NewLoop(r.Info, loop), seen: map[types.Object]bool{}}
			if !s.varies(arg) {
				continue
			}
			d := analysis.Diagnostic{
				Pos: arg.Pos(), End: arg.End(),
				Message: fmt.Sprintf("argument %s has a different shape on each iteration: one compile per distinct shape (%s). "+
					"Pad to a fixed size with jit.PadTo and pass a mask", argName(j, k, arg), count(r, loop)),
			}
			if j != nil {
				d.Related = []analysis.RelatedInformation{{Pos: j.Call.Pos(), End: j.Call.End(), Message: "the function is jitted here"}}
			}
			report(d)
			break
		}
	}
}

// count says how the number of compiles grows: with the distinct values of
// a literal ranged over, with the trip count, or with the data.
func count(r *traced.Result, loop ast.Stmt) string {
	if rs, ok := loop.(*ast.RangeStmt); ok {
		if n, ok := r.ConstSet(rs.X); ok {
			return fmt.Sprintf("%d distinct lengths in the literal → %d compiles", n, n)
		}
		return "the number of compiles grows with the distinct lengths in " + types.ExprString(rs.X)
	}
	if tc := traced.Trips(r.Info, loop); tc.Known {
		return fmt.Sprintf("up to %d compiles, one per iteration", tc.N)
	}
	return "the number of compiles grows with the data"
}

// argName names argument k: the parameter's name when known, else the expression.
func argName(j *traced.Jitted, k int, arg ast.Expr) string {
	if j == nil {
		return types.ExprString(arg)
	}
	if name := j.ParamName(k); name != "" {
		return name
	}
	return types.ExprString(arg)
}

// shapes decides whether the shape of an array expression changes between
// iterations of one loop.
type shapes struct {
	r     *traced.Result
	loop  *traced.Loop
	seen  map[types.Object]bool
	depth int // helpers followed to get here
	// recv is the receiver of the method whose scope this is, and recvArg
	// the value the method was called on (nil outside methods).
	recv    *types.Var
	recvArg ast.Expr
}

// maxHelperDepth bounds how deep shapes follows helpers that call helpers.
const maxHelperDepth = 4

// varies reports whether the shape of e may differ between iterations.
func (s *shapes) varies(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := s.r.Info.Uses[e]
		if obj == nil || s.seen[obj] {
			return false
		}
		s.seen[obj] = true
		values, loopVar := s.loop.Values(obj)
		if rs, ok := s.loop.Stmt.(*ast.RangeStmt); ok && loopVar && isIdentOf(s.r.Info, rs.Value, obj) {
			return s.elementsVary(rs.X)
		}
		for _, v := range values {
			if s.varies(v) {
				return true
			}
		}
	case *ast.CallExpr:
		return s.call(e)
	}
	return false
}

// isIdentOf reports whether e is an identifier that declares obj.
func isIdentOf(info *types.Info, e ast.Expr, obj types.Object) bool {
	id, ok := e.(*ast.Ident)
	return ok && info.Defs[id] == obj
}

// inner returns the shapes of another loop or helper scope, one helper deeper.
func (s *shapes) inner(l *traced.Loop) *shapes {
	return &shapes{r: s.r, loop: l, seen: map[types.Object]bool{}, depth: s.depth + 1}
}

// elementsVary reports whether the arrays of the slice x differ in shape
// from one element to the next: the slice is built by appending, in a
// loop, arrays whose shape changes from one iteration to the next, here or
// in the helper of the package that returns it (records(30)).
func (s *shapes) elementsVary(x ast.Expr) bool {
	if s.depth > maxHelperDepth {
		return false
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, ok := s.r.Info.Uses[x].(*types.Var)
		if !ok {
			return false
		}
		values, _ := s.r.DeclValues(v)
		for _, val := range values {
			if app, ok := ast.Unparen(val).(*ast.CallExpr); ok && isAppend(s.r.Info, app) {
				if s.appendVaries(app) {
					return true
				}
			} else if s.inner(s.loop).elementsVary(val) {
				return true
			}
		}
	case *ast.CallExpr:
		values, _ := s.r.Returns(x, 0)
		for _, ret := range values {
			if s.inner(s.loop).elementsVary(ret.Value) {
				return true
			}
		}
	}
	return false
}

// appendVaries reports whether an append adds arrays whose shape changes
// between iterations of a loop around it.
func (s *shapes) appendVaries(app *ast.CallExpr) bool {
	for _, loop := range traced.Loops(s.r.PathTo(app)) {
		if s.inner(traced.NewLoop(s.r.Info, loop)).anyArray(app.Args[1:]) {
			return true
		}
	}
	return false
}

// helperVaries reports whether a function of the package returns an array
// whose shape changes between iterations: the arguments that change (and
// do not merely cycle through a few values) reach a size inside it
// (tokenize(s) with a new s each time), or it reads state that it advances
// itself (a loader's Next that moves its position).
func (s *shapes) helperVaries(call *ast.CallExpr) bool {
	return s.inHelper(call, traced.IsArray, (*shapes).varies)
}

// inHelper reports whether test holds for a result of the functions of the
// package that call runs, of a type that want accepts, in the helper's
// scope: with its parameters that receive changing arguments, and the
// state it advances, counted as changing.
func (s *shapes) inHelper(call *ast.CallExpr, want func(types.Type) bool, test func(*shapes, ast.Expr) bool) bool {
	if s.depth > maxHelperDepth {
		return false
	}
	for _, k := range results(s.r.Info.TypeOf(call), want) {
		values, _ := s.r.Returns(call, k)
		for _, ret := range values {
			varying := stateWrites(s.r, ret.Func)
			for i, p := range s.r.Params(ret.Func) {
				if p != nil && i < len(call.Args) && s.argVaries(call.Args[i]) {
					varying = append(varying, p)
				}
			}
			if len(varying) == 0 {
				continue
			}
			in := s.inner(traced.NewScope(s.r.Info, traced.FuncBody(ret.Func), varying))
			in.recv, in.recvArg = receiverOf(s.r.Info, ret.Func, call)
			if test(in, ret.Value) {
				return true
			}
		}
	}
	return false
}

// argVaries reports whether an argument of a helper takes a new value (or,
// for an array, a new shape) on each iteration, beyond a few values that
// repeat (min(8<<epoch, 32) over 14 epochs is 3 values: at most 3 shapes).
func (s *shapes) argVaries(arg ast.Expr) bool {
	if traced.IsArray(s.r.Info.TypeOf(arg)) {
		return s.varies(arg)
	}
	if id, ok := ast.Unparen(arg).(*ast.Ident); ok && isSlice(s.r.Info.TypeOf(arg)) {
		if rs, ok := s.loop.Stmt.(*ast.RangeStmt); ok && isIdentOf(s.r.Info, rs.Value, s.r.Info.Uses[id]) && s.elementLengthsFixed(rs.X) {
			return false // chunks of a fixed size and a short last one
		}
	}
	return s.valueVaries(arg)
}

// elementLengthsFixed reports whether the slices that a helper of the
// package appends, in a loop, to the slice it returns have a length that
// does not change from one iteration to the next, or changes in a bounded
// way (data[off:min(off+size, len(data))]: full chunks and a short last
// one).
func (s *shapes) elementLengthsFixed(x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || s.depth > maxHelperDepth {
		return false
	}
	values, ok := s.r.Returns(call, 0)
	if !ok || len(values) == 0 {
		return false
	}
	for _, ret := range values {
		id, ok := ast.Unparen(ret.Value).(*ast.Ident)
		if !ok {
			return false
		}
		vals, _ := s.r.DeclValues(s.r.Info.Uses[id])
		for _, v := range vals {
			app, ok := ast.Unparen(v).(*ast.CallExpr)
			if !ok || !isAppend(s.r.Info, app) {
				return false
			}
			loops := traced.Loops(s.r.PathTo(app))
			if len(loops) == 0 {
				return false
			}
			in := s.inner(traced.NewLoop(s.r.Info, loops[len(loops)-1]))
			for _, elt := range app.Args[1:] {
				if in.lengthVaries(elt) {
					return false
				}
			}
		}
	}
	return true
}

// valueVaries reports whether e, a size or another Go value, takes a new
// value on each iteration, beyond a few values that repeat (1 + i%3 is 3
// sizes however long the loop runs: 3 compiles, then cache hits).
func (s *shapes) valueVaries(e ast.Expr) bool {
	if !s.loop.Varies(e) {
		return false
	}
	if s.loop.Stmt == nil {
		// A helper's scope: no iterations to count, but a size that a
		// closure held by the receiver chooses from a few values is few.
		return !s.fewFromField(e)
	}
	return !s.r.Repeats(s.loop, e)
}

// fewFromField reports whether e, in a method's scope, is (a variable set
// once from) a call of a function-valued field of the receiver, p.size(…),
// whose value in the literal the method was called on is a closure that
// returns one of a few values ([]int{24, 28, 32}[r.IntN(3)]).
func (s *shapes) fewFromField(e ast.Expr) bool {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if values, _ := s.loop.Values(s.r.Info.Uses[id]); len(values) == 1 {
			e = values[0]
		}
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || s.recv == nil {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || traced.RootIdent(sel.X) == nil || s.r.Info.Uses[traced.RootIdent(sel.X)] != s.recv || sel.X != ast.Expr(traced.RootIdent(sel.X)) {
		return false
	}
	lit := s.literalOf(s.recvArg)
	if lit == nil {
		return false
	}
	fn, ok := ast.Unparen(traced.FieldValue(s.r.Info, lit, sel.Sel.Name)).(*ast.FuncLit)
	if !ok {
		return false
	}
	scope := traced.NewScope(s.r.Info, fn.Body, traced.ParamVars(s.r.Info, fn.Type))
	few := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if _, isLit := n.(*ast.FuncLit); isLit {
			return false
		}
		if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
			few = s.r.Few(scope, ret.Results[0])
			return few
		}
		return true
	})
	return few
}

// literalOf returns the struct literal that e (a variable with one value,
// or &T{…}) stands for, or nil.
func (s *shapes) literalOf(e ast.Expr) *ast.CompositeLit {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := s.r.Info.Uses[id].(*types.Var); ok {
			if values, _ := s.r.DeclValues(v); len(values) == 1 {
				e = values[0]
			}
		}
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok {
		e = u.X
	}
	lit, _ := ast.Unparen(e).(*ast.CompositeLit)
	return lit
}

// receiverOf returns the receiver of fn, a method, and the value call
// calls it on (nil, nil for a function).
func receiverOf(info *types.Info, fn ast.Node, call *ast.CallExpr) (*types.Var, ast.Expr) {
	fd, ok := fn.(*ast.FuncDecl)
	sel, ok2 := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !ok2 || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil, nil
	}
	v, _ := info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	return v, sel.X
}

// valuesVary reports whether one of es varies (see valueVaries).
func (s *shapes) valuesVary(es []ast.Expr) bool {
	return slices.ContainsFunc(es, s.valueVaries)
}

// results returns the indexes of the results of a call of type t (a
// tuple, or one type) that want accepts.
func results(t types.Type, want func(types.Type) bool) []int {
	if tuple, ok := t.(*types.Tuple); ok {
		var out []int
		for i := range tuple.Len() {
			if want(tuple.At(i).Type()) {
				out = append(out, i)
			}
		}
		return out
	}
	if t != nil && want(t) {
		return []int{0}
	}
	return nil
}

// stateWrites returns the variables outside a function that it changes,
// whose values it may read again on its next call: its receiver, when it
// assigns through it (l.pos++), package variables it assigns, and the
// receiver or parameters through which it draws from a generator.
func stateWrites(r *traced.Result, fn ast.Node) []*types.Var {
	info := r.Info
	var out []*types.Var
	var recv *types.Var
	if fd, ok := fn.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		recv, _ = info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	}
	write := func(lhs ast.Expr) {
		id := traced.RootIdent(lhs)
		if id == nil {
			return
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || slices.Contains(out, v) {
			return
		}
		if v == recv && lhs != ast.Expr(id) || v.Parent() != nil && v.Parent() == v.Pkg().Scope() {
			out = append(out, v)
		}
	}
	draw := func(e ast.Expr) {
		if id := traced.RootIdent(e); id != nil {
			if v, ok := info.Uses[id].(*types.Var); ok && !slices.Contains(out, v) && (v == recv || slices.Contains(r.Params(fn), v)) {
				out = append(out, v)
			}
		}
	}
	ast.Inspect(traced.FuncBody(fn), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				write(ast.Unparen(lhs))
			}
		case *ast.IncDecStmt:
			write(ast.Unparen(n.X))
		case *ast.CallExpr:
			// A draw from a generator reached through the receiver or a
			// parameter (p.rng.IntN(n), or p.rng passed on) advances it.
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && isGenerator(info.TypeOf(sel.X)) {
				draw(sel.X)
			}
			for _, a := range n.Args {
				if isGenerator(info.TypeOf(a)) {
					draw(a)
				}
			}
		}
		return true
	})
	return out
}

// isGenerator reports whether t is a math/rand (or math/rand/v2) generator.
func isGenerator(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	path := n.Obj().Pkg().Path()
	return n.Obj().Name() == "Rand" && (path == "math/rand" || path == "math/rand/v2")
}

// call handles the jit operations that make or change shapes.
func (s *shapes) call(call *ast.CallExpr) bool {
	if name, recv := traced.ArrayMethod(s.r.Info, call); name != "" {
		switch name {
		case "Slice":
			return s.sliceVaries(call.Args) || s.varies(recv)
		case "Reshape":
			return s.valuesVary(call.Args)
		case "Sum", "Mean", "MaxReduce", "MinReduce", "Transpose":
			return s.valuesVary(call.Args) || s.varies(recv)
		}
		if s.varies(recv) {
			return true
		}
		return s.anyArray(call.Args)
	}
	args := call.Args
	switch traced.JitFunc(s.r.Info, call) {
	case "Arange":
		return len(args) > 0 && s.valueVaries(args[0])
	case "Zeros", "Ones":
		return len(args) > 1 && s.valuesVary(args[1:])
	case "Full":
		return len(args) > 2 && s.valuesVary(args[2:])
	case "FromSlice":
		if len(args) > 1 {
			return s.valuesVary(args[1:])
		}
		return len(args) == 1 && s.lengthVaries(args[0])
	case "PadTo":
		// A few buckets are a few compiles.
		if len(args) < 2 || !s.loop.Varies(args[1]) {
			return false
		}
		return !s.r.Repeats(s.loop, args[1])
	case "Concatenate":
		if total, ok := s.concatSize(args); ok {
			return s.sizeVaries(total)
		}
		return s.anyArray(args)
	case "Where":
		return s.anyArray(args)
	case "":
		return s.helperVaries(call)
	}
	return false
}

// anyArray reports whether an array among es changes shape.
func (s *shapes) anyArray(es []ast.Expr) bool {
	for _, a := range es {
		if traced.IsArray(s.r.Info.TypeOf(a)) && s.varies(a) {
			return true
		}
	}
	return false
}

// lengthVaries reports whether the length of a Go slice changes between
// iterations: a slice expression whose width depends on the loop (or, with
// no high bound, of a slice whose length does), or a loop
// variable or variable assigned in the loop (ragged batches).
func (s *shapes) lengthVaries(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SliceExpr:
		low := e.Low
		if low == nil {
			low = &ast.BasicLit{Kind: token.INT, Value: "0"}
		}
		if e.High != nil {
			// x[low:high] has high-low elements, whatever the length of x
			// (ring[off:][:n] is n long).
			return s.widthVaries(low, e.High)
		}
		return s.loop.Varies(low) || s.lengthVaries(e.X)
	case *ast.Ident:
		obj := s.r.Info.Uses[e]
		if obj == nil || s.seen[obj] {
			return false
		}
		s.seen[obj] = true
		values, loopVar := s.loop.Values(obj)
		if loopVar {
			return true
		}
		for _, v := range values {
			if s.lengthVaries(v) {
				return true
			}
		}
	case *ast.CallExpr:
		if isAppend(s.r.Info, e) {
			// In a loop, a slice appended to grows on every iteration; in
			// a helper, its length changes when its loops' counts do.
			return s.loop.Stmt != nil || s.appendCountVaries(e)
		}
		if traced.IsBuiltin(s.r.Info, e.Fun, "make") && len(e.Args) > 1 {
			return s.valueVaries(e.Args[1])
		}
		if s.r.Info.Types[e.Fun].IsType() && len(e.Args) == 1 {
			return s.lengthVaries(e.Args[0]) // a conversion
		}
		return s.inHelper(e, isSlice, (*shapes).lengthVaries)
	}
	return false
}

// isSlice reports whether t is a slice type.
func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// appendCountVaries reports whether, in a helper's scope, the loops around
// an append run a number of times that changes with what changes: a count
// or a ranged slice that varies, or a loop of another form (for { … } until
// done) that reads something that varies.
func (s *shapes) appendCountVaries(app *ast.CallExpr) bool {
	for _, loop := range traced.Loops(s.r.PathTo(app)) {
		tc := traced.Trips(s.r.Info, loop)
		switch {
		case tc.Known:
		case tc.Bound != nil:
			if s.valueVaries(tc.Bound) {
				return true
			}
		case tc.Structure:
			if s.lengthVaries(loop.(*ast.RangeStmt).X) {
				return true
			}
		default:
			if s.mentionsVarying(loop) {
				return true
			}
		}
	}
	return false
}

// mentionsVarying reports whether n reads a variable that varies.
func (s *shapes) mentionsVarying(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && s.loop.VariesVar(s.r.Info.Uses[id]) {
			found = true
		}
		return !found
	})
	return found
}

// isAppend reports whether call is a call of the builtin append.
func isAppend(info *types.Info, call *ast.CallExpr) bool {
	return traced.IsBuiltin(info, call.Fun, "append")
}
