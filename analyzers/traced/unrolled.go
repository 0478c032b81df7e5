package traced

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Unrolled loops: a Go loop in traced code runs while tracing, so each
// iteration adds the operations of its body to the program. Its trip
// count is the loop's count evaluated in the context it runs in (the
// arguments of the calls, the shapes the program passes, the static
// arguments of the jitted calls); where it comes from is said in the
// message.

// A LoopCount is a loop of traced code whose body stages operations, and
// its trip count in its worst context.
type LoopCount struct {
	// Stmt is the for or range statement (nil for a loop of another
	// package reached through a call, then at Call).
	Stmt ast.Stmt
	Call *ast.CallExpr
	// Ops is about how many operations one iteration stages.
	Ops int
	// N is the most trips, when Known.
	N     int64
	Known bool
	// Source says where the count comes from:
	//   "constant"       the loop's own constant bounds
	//   "static"         the static argument Name, N at Site
	//   "argument"       the helper's parameter Name, N at the call Site
	//   "value"          a value of the program (Bound is N)
	//   "slice"          the length of the slice Name (Length)
	//   "slice-call"     the slice Name that the call at Site passes (Length)
	//   "nonstatic"      a non-static argument Name of the jitted function
	//   "static-unknown" the static argument Name, set to Passed at Site
	//   "shape"          a shape not known here (Bound)
	//   "data"           a slice Name that the call at Site builds by ranging over Passed
	//   "external"       a loop of another package's function (Problem)
	Source string
	Name   string
	Bound  string
	Passed string
	Site   token.Pos
	Length int64
	// Related points at what made the code traced, and at the call that
	// sets the count.
	Related []analysis.RelatedInformation
	Callee  *types.Func
	Problem *Problem
}

// Loops returns the loops of traced code that stage operations, each with
// its worst context (the most trips, or a count that is not bounded).
func (r *Result) Loops() []LoopCount {
	r.mu.Lock()
	defer r.mu.Unlock()
	best := map[ast.Stmt]LoopCount{}
	var order []ast.Stmt
	var external []LoopCount
	for _, c := range r.contexts {
		for _, lc := range r.loopsIn(c) {
			if lc.Stmt == nil {
				external = append(external, lc)
				continue
			}
			cur, seen := best[lc.Stmt]
			if !seen {
				order = append(order, lc.Stmt)
			}
			if !seen || worse(lc, cur) {
				best[lc.Stmt] = lc
			}
		}
	}
	out := make([]LoopCount, 0, len(order)+len(external))
	for _, s := range order {
		out = append(out, best[s])
	}
	out = append(out, external...)
	sortByPos(out, func(l LoopCount) token.Pos {
		if l.Stmt != nil {
			return l.Stmt.Pos()
		}
		return l.Call.Pos()
	})
	return out
}

// worse reports whether a's count is worse than b's: not bounded where b
// is, or more trips.
func worse(a, b LoopCount) bool {
	if a.Known != b.Known {
		return !a.Known && reportable(a.Source)
	}
	return a.N > b.N
}

// reportable reports whether an unknown count from source is a finding.
func reportable(source string) bool {
	switch source {
	case "nonstatic", "static-unknown", "shape", "data", "shape-slice":
		return true
	}
	return false
}

// loopsIn returns the loops of context c that stage operations.
func (r *Result) loopsIn(c *Context) []LoopCount {
	f := r.flow
	s := f.summary(c.Fn)
	var out []LoopCount
	for _, l := range s.loops {
		if l.Stmt == nil || !c.Live(l.header) || r.failsBefore(c, l.header.Instrs[0]) || r.failsInFirstIteration(c, l) {
			continue
		}
		ops := 0
		for _, b := range l.body {
			ops += r.contextOps(c, b)
		}
		if ops == 0 {
			continue
		}
		lc := r.countLoop(c, s, l)
		lc.Ops, lc.Related = ops, r.related(c)
		out = append(out, lc)
	}
	// Loops of other packages' functions that this context calls.
	for _, b := range c.Fn.Blocks {
		if !c.Live(b) {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || call.Common().StaticCallee() == nil || f.local(call.Common().StaticCallee()) {
				continue
			}
			out = append(out, r.externalLoops(c, call, b)...)
		}
	}
	return out
}

// failsInFirstIteration reports whether the trace fails on every path
// through l's body, before the loop goes round (a conversion of a
// traced value that every iteration reaches): its body runs once.
func (r *Result) failsInFirstIteration(c *Context, l *Loop) bool {
	latches := 0
	for _, p := range l.header.Preds {
		if !l.contains(p) || !c.Live(p) {
			continue
		}
		latches++
		if !r.failsBefore(c, p.Instrs[len(p.Instrs)-1]) {
			return false
		}
	}
	return latches > 0
}

// contextOps counts the operations block b of c stages, resolving its
// calls of function values in c.
func (r *Result) contextOps(c *Context, b *ssa.BasicBlock) int {
	f := r.flow
	s := f.summary(c.Fn)
	n := 0
	for _, instr := range b.Instrs {
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			continue
		}
		com := call.Common()
		if com.StaticCallee() != nil || com.IsInvoke() {
			n += f.callOps(s, call, b)
			continue
		}
		n += f.valueOps(c.value(com.Value, b))
	}
	return n
}

// valueOps is the most operations a call of the function value v stages.
func (f *flow) valueOps(v *Expr) int {
	best := 0
	for _, v := range alternatives(v) {
		switch {
		case v.Kind == kFunc && v.Fn != nil && f.local(v.Fn):
			best = max(best, f.opsOf(v.Fn))
		case v.Kind == kFunc && v.Name == "jit.Call":
			best = max(best, 1)
		}
	}
	return best
}

// countLoop works out l's trip count in c and where it comes from.
func (r *Result) countLoop(c *Context, s *summary, l *Loop) LoopCount {
	f := r.flow
	s.solve(l)
	lc := LoopCount{Stmt: l.Stmt, Bound: r.boundText(l.Stmt)}
	slice := r.sliceOf(l.Stmt)
	if slice != nil {
		lc.Name = types.ExprString(sliceBase(slice))
	}
	if l.trips == nil {
		lc.Source = "unknown"
		return lc
	}
	inst := f.subst(l.trips, c.Env)
	ev := f.newEvaluator()
	ev.ctx = c
	n, known := ev.values(inst).max()
	lc.N, lc.Known = n, known
	param := firstParam(l.trips, c.Fn)
	var bind *Expr
	if param >= 0 && c.Env != nil && param < len(c.Env.Params) {
		bind = c.Env.Params[param]
	}
	in := inputOf(inst)
	switch {
	case !l.trips.mentions(func(a *Expr) bool { return isAtomOf(a, c.Fn) || a.Kind == kLoad || a.Kind == kIter }):
		lc.Source = "constant"
		if slice != nil {
			lc.Source, lc.Length = "slice", r.sliceLength(c, slice, ev)
		}
	case in != nil && slice != nil && strings.HasPrefix(in.Name, "len"):
		lc.Source = "slice-call"
		r.fromSites(&lc, in)
		if !lc.Known {
			lc.Source = r.dataSource(&lc, in)
		}
	case in != nil && strings.HasPrefix(in.Name, "static") && slice == nil && (!known || sitesMax(r, in) == n):
		lc.Source, lc.Name = "static", rootParamName(in)
		r.fromSites(&lc, in)
	case in != nil && strings.HasPrefix(in.Name, "nonstatic") && !known:
		lc.Source, lc.Name = "nonstatic", rootParamName(in)
	case slice != nil && known:
		lc.Source, lc.Length = "slice", r.sliceLength(c, slice, ev)
	case bind != nil && c.Parent != nil && known && lc.Bound == c.Fn.Params[param].Name() && !bind.mentions(func(a *Expr) bool { return a.Kind == kInput }):
		lc.Source, lc.Name = "argument", c.Fn.Params[param].Name()
		if call := r.callAt(c.Call); call != nil {
			lc.Site = call.Pos()
		}
	case known:
		lc.Source, lc.Length = "value", r.boundValue(c, l, ev, n)
	case mentionsDims(inst):
		lc.Source = "shape"
		if slice != nil {
			lc.Source, lc.Bound = "shape-slice", r.lengthSource(c, slice)
		}
	default:
		lc.Source = "unknown"
	}
	return lc
}

// mentionsDims reports whether e reads the dims of an array not known here
// (not its rank, which is small whatever the input: a loop over the axes).
func mentionsDims(e *Expr) bool {
	found := false
	e.walk(func(a *Expr) bool {
		switch {
		case found:
			return false
		case a.Kind == kLen && a.Args[0].Kind == kShape:
			return false // the rank
		case a.Kind == kShape:
			found = true
		}
		return true
	})
	return found
}

// sliceOf is the slice a loop walks: what a range loop ranges over, or
// the x of a counting loop bounded by len(x) (for t := len(xs) - 1; t >= 0;
// t--); nil for other loops.
func (r *Result) sliceOf(stmt ast.Stmt) ast.Expr {
	switch s := stmt.(type) {
	case *ast.RangeStmt:
		if !isIntType(r.Info.TypeOf(s.X)) {
			return s.X
		}
	case *ast.ForStmt:
		var found ast.Expr
		for _, n := range []ast.Node{s.Init, s.Cond} {
			if n == nil {
				continue
			}
			ast.Inspect(n, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 1 {
					if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "len" {
						if _, builtin := r.Info.Uses[id].(*types.Builtin); builtin {
							found = call.Args[0]
						}
					}
				}
				return found == nil
			})
		}
		return found
	}
	return nil
}

// boundValue is the largest value of the loop's bound expression in c
// (cfg.Order), or n when it is not known.
func (r *Result) boundValue(c *Context, l *Loop, ev *evaluator, n int64) int64 {
	fs, ok := l.Stmt.(*ast.ForStmt)
	if !ok {
		return n
	}
	b, ok := fs.Cond.(*ast.BinaryExpr)
	if !ok {
		return n
	}
	e := b.Y
	if id := counterOf(fs); id != nil && mentionsIdent(b.Y, id.Name) && !mentionsIdent(b.X, id.Name) {
		e = b.X
	}
	v, _ := c.Fn.ValueForExpr(e)
	if v == nil {
		return n
	}
	if m, ok := ev.values(c.value(v, l.header)).max(); ok {
		return m
	}
	return n
}

// lengthSource is the source of the length of a slice made with make
// (make([]jit.Array, x.Shape()[0])), here or in the helper that returns it.
func (r *Result) lengthSource(c *Context, slice ast.Expr) string {
	v, _ := c.Fn.ValueForExpr(slice)
	if v == nil {
		return types.ExprString(slice)
	}
	var mk *ssa.MakeSlice
	c.value(v, nil).mentions(func(a *Expr) bool {
		if a.Kind == kSeq {
			if p, ok := a.Site.(*Expr); ok && p.Kind == kPtr {
				mk, _ = p.Site.(*ssa.MakeSlice)
			}
		}
		return mk != nil
	})
	if mk != nil {
		if e := exprOf(mk.Parent(), mk.Len); e != nil {
			return types.ExprString(e)
		}
	}
	return types.ExprString(slice)
}

// exprOf returns the source expression of an SSA value (from the debug
// information of its function), or nil.
func exprOf(fn *ssa.Function, v ssa.Value) ast.Expr {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ref, ok := instr.(*ssa.DebugRef); ok && ref.X == v && !ref.IsAddr {
				return ref.Expr
			}
		}
	}
	return nil
}

// sitesMax is the largest value the calls pass to the root input in (-1
// when one is not known).
func sitesMax(r *Result, in *Expr) int64 {
	most := int64(-1)
	for _, v := range in.Args {
		n, ok := r.flow.values(v).max()
		if !ok {
			return -1
		}
		most = max(most, n)
	}
	return most
}

// fromSites fills the count of a loop bounded by the root input in from
// the calls that pass it: the largest value and its call, or the call that
// passes a value not known there.
func (r *Result) fromSites(lc *LoopCount, in *Expr) {
	var most int64
	found := false
	for i, v := range in.Args {
		n, ok := r.flow.values(v).max()
		site := token.NoPos
		if i < len(in.Sites) {
			if call := r.callAt(asInstr(in.Sites[i])); call != nil {
				site = call.Pos()
				if !ok {
					if lc.Source == "static" {
						lc.Source = "static-unknown"
					}
					lc.Site, lc.Known = site, false
					if in.N < len(call.Args) {
						lc.Passed = types.ExprString(call.Args[in.N])
					}
					return
				}
			}
		}
		if ok && (!found || n > most) {
			most, found, lc.Site = n, true, site
		}
	}
	if found && lc.Source != "slice-call" {
		lc.N, lc.Known = most, true
	}
	if found && lc.Source == "slice-call" {
		lc.Length = most
	}
	if len(in.Args) == 0 && lc.Source == "static" {
		lc.Source = "unknown" // not called in this package
	}
}

// dataSource explains a slice argument whose length is not known: one
// that a call builds by ranging over data ("data"), or not known.
func (r *Result) dataSource(lc *LoopCount, in *Expr) string {
	for i, v := range in.Args {
		var built *Loop
		v.mentions(func(a *Expr) bool {
			if (a.Kind == kAtExit || a.Kind == kOver) && a.Loop.Stmt != nil {
				if rs, isRange := a.Loop.Stmt.(*ast.RangeStmt); isRange && !isIntType(r.Info.TypeOf(rs.X)) {
					ev := r.flow.newEvaluator()
					if _, known := ev.trips(a.Loop, a.Env); !known {
						built = a.Loop // a loop over data whose length is not known
					}
				}
			}
			return built != nil
		})
		if built == nil {
			continue
		}
		if i < len(in.Sites) {
			if call := r.callAt(asInstr(in.Sites[i])); call != nil {
				lc.Site = call.Pos()
			}
		}
		lc.Passed = types.ExprString(built.Stmt.(*ast.RangeStmt).X)
		return "data"
	}
	return "unknown"
}

// sliceLength is the length of the slice a range loop walks (before a
// skipped prefix: xs[1:] of a 40-element xs is 40).
func (r *Result) sliceLength(c *Context, x ast.Expr, ev *evaluator) int64 {
	if se, ok := ast.Unparen(x).(*ast.SliceExpr); ok && se.High == nil && se.Low != nil {
		if v, _ := c.Fn.ValueForExpr(se.X); v != nil {
			if n, ok := ev.values(length(c.value(v, nil))).max(); ok {
				return n
			}
		}
	}
	if v, _ := c.Fn.ValueForExpr(x); v != nil {
		if n, ok := ev.values(length(c.value(v, nil))).max(); ok {
			return n
		}
	}
	return 0
}

// externalLoops are the loops of another package's function called at
// call, from its fact, counted with this call's arguments.
func (r *Result) externalLoops(c *Context, call ssa.CallInstruction, b *ssa.BasicBlock) []LoopCount {
	fn := call.Common().StaticCallee()
	fact := r.flow.funcFact(fn)
	expr := r.callAt(call)
	if fact == nil || expr == nil {
		return nil
	}
	var out []LoopCount
	for i := range fact.Problems {
		p := &fact.Problems[i]
		if p.Kind != "loop" {
			continue
		}
		args := make([]*Expr, len(call.Common().Args))
		for k, a := range call.Common().Args {
			args[k] = c.value(a, b)
		}
		ops := p.Ops
		for _, k := range p.Calls {
			if k < len(args) {
				ops += r.flow.valueOps(args[k])
			}
		}
		if ops == 0 {
			continue // its callbacks stage nothing
		}
		trips := r.flow.subst(decode(p.Trips, fn, nil), &Env{Fn: fn, Params: args})
		n, known := r.flow.valuesAt(trips, c).max()
		out = append(out, LoopCount{Call: expr, N: n, Known: known, Ops: ops, Source: "external", Callee: fn.Object().(*types.Func), Problem: p, Related: r.related(c)})
	}
	return out
}

// firstParam returns the index of the first parameter of fn that e
// mentions, or -1.
func firstParam(e *Expr, fn *ssa.Function) int {
	idx := -1
	e.mentions(func(a *Expr) bool {
		if a.Kind == kParam && a.Fn == fn {
			idx = a.N
			return true
		}
		return false
	})
	return idx
}

// inputOf returns the root input that e depends on, if any.
func inputOf(e *Expr) *Expr {
	var in *Expr
	e.mentions(func(a *Expr) bool {
		if a.Kind == kInput {
			in = a
			return true
		}
		return false
	})
	return in
}

// rootParamName names the parameter of the root function an input is.
func rootParamName(in *Expr) string {
	if in.Fn != nil && in.N < len(in.Fn.Params) {
		return in.Fn.Params[in.N].Name()
	}
	return "?"
}

func asInstr(x any) ssa.Instruction {
	i, _ := x.(ssa.Instruction)
	return i
}

// boundText is the source of a loop's bound: the other side of a
// counting loop's condition, or what a range loop ranges over.
func (r *Result) boundText(stmt ast.Stmt) string {
	switch s := stmt.(type) {
	case *ast.RangeStmt:
		return types.ExprString(s.X)
	case *ast.ForStmt:
		if b, ok := s.Cond.(*ast.BinaryExpr); ok {
			if id := counterOf(s); id != nil && mentionsIdent(b.Y, id.Name) && !mentionsIdent(b.X, id.Name) {
				return types.ExprString(b.X)
			}
			return types.ExprString(b.Y)
		}
	}
	return ""
}

// counterOf returns the variable a for loop's init statement defines.
func counterOf(s *ast.ForStmt) *ast.Ident {
	if a, ok := s.Init.(*ast.AssignStmt); ok && len(a.Lhs) == 1 {
		id, _ := a.Lhs[0].(*ast.Ident)
		return id
	}
	return nil
}

func mentionsIdent(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// sliceBase is the slice a slicing expression slices (xs of xs[1:]).
func sliceBase(e ast.Expr) ast.Expr {
	if se, ok := ast.Unparen(e).(*ast.SliceExpr); ok {
		return se.X
	}
	return e
}

func isIntType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
