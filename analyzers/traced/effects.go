package traced

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Effects: code that runs inside a trace runs once per trace, not once
// per call, so anything it does outside the trace happens only then. One
// rule decides what that is: a write to memory that outlives the trace (a
// package variable, a variable captured from outside the traced function,
// the receiver of a method value, what a traced argument points to — not
// memory the trace allocates itself), or communication with the world
// (output, the clock, randomness, channels, atomics and locks on shared
// memory). The functions of the standard library that communicate are
// classified by package (effectClass); those of the program's own
// packages by their facts.

// An Effect is a host side effect that runs while tracing.
type Effect struct {
	// Pos and End delimit it; Call is its call expression, if any.
	Pos, End token.Pos
	Call     *ast.CallExpr
	// Class is "print", "write", "clock", "draw", "atomic", "channel",
	// "lock" or "io"; Name names the call ("fmt.Printf", "rng.Float64").
	Class, Name string
	// Target describes the memory a write changes ("package variable n",
	// "captured variable seen", "m.steps (state of the receiver, which
	// outlives the trace)").
	Target string
	// Related points at what made the code traced.
	Related []analysis.RelatedInformation
	// Callee and Problem are set for a call of another package's function
	// whose fact has the effect; Recv then names the receiver's memory.
	Callee  *types.Func
	Problem *Problem
	// param is the parameter through which the effect reaches outliving
	// memory (-1: none; for facts).
	param int
}

// Effects returns the trace-time effects of the package, in source order,
// each once.
func (r *Result) Effects() []Effect {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Effect
	seen := map[string]bool{}
	for _, c := range r.contexts {
		for _, e := range r.effectsIn(c) {
			key := r.Where(e.Pos) + e.Class + e.Name
			if e.Problem != nil {
				key += e.Problem.Pos
			}
			if !seen[key] {
				seen[key] = true
				out = append(out, e)
			}
		}
	}
	for _, root := range r.flow.externalRoots {
		for _, p := range r.rootProblems(root, "effect") {
			call := r.callAt(root.Call)
			out = append(out, Effect{Pos: call.Pos(), End: call.End(), Call: call, Class: "external", Callee: root.Fn.Object().(*types.Func), Problem: p})
		}
	}
	sortByPos(out, func(e Effect) token.Pos { return e.Pos })
	return out
}

// effectsIn returns the effects of context c.
func (r *Result) effectsIn(c *Context) []Effect {
	if r.onceFiredEagerly(c) {
		return nil
	}
	var out []Effect
	add := func(instr ssa.Instruction, e Effect) {
		if r.failsBefore(c, instr) {
			return // the trace fails before (tracedbool's finding)
		}
		e.Related = r.related(c)
		out = append(out, e)
	}
	for _, b := range c.Fn.Blocks {
		if !c.Live(b) {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if p, ok := r.outlives(c, x.Addr, b); ok {
					if lhs := r.assigned(x.Pos()); lhs != nil {
						add(instr, Effect{Pos: lhs.Pos(), End: lhs.End(), Class: "write", Target: r.describeWrite(c, lhs), param: p})
					}
				}
			case *ssa.MapUpdate:
				if p, ok := r.outlives(c, x.Map, b); ok {
					if lhs := r.assigned(x.Pos()); lhs != nil {
						add(instr, Effect{Pos: lhs.Pos(), End: lhs.End(), Class: "write", Target: r.describeWrite(c, lhs), param: p})
					}
				}
			case *ssa.Send:
				if p, ok := r.outlives(c, x.Chan, b); ok && x.Pos().IsValid() {
					add(instr, Effect{Pos: x.Pos(), End: x.Pos(), Class: "channel", Name: "a send", param: p})
				}
			case *ssa.Select:
				// Its cases send and receive as the statements do.
				for _, st := range x.States {
					if p, ok := r.outlives(c, st.Chan, b); ok && x.Pos().IsValid() {
						add(instr, Effect{Pos: x.Pos(), End: x.Pos(), Class: "channel", Name: "a select", param: p})
						break
					}
				}
			case *ssa.UnOp:
				if x.Op == token.ARROW && x.Pos().IsValid() {
					if p, ok := r.outlives(c, x.X, b); ok {
						add(instr, Effect{Pos: x.Pos(), End: x.Pos(), Class: "channel", Name: "a receive", param: p})
					}
				}
			case ssa.CallInstruction:
				if e, ok := r.callEffect(c, x, b); ok {
					add(instr, e)
				}
			}
		}
	}
	return out
}

// callEffect classifies a call: an effectful function of the standard
// library, a builtin that prints, or a function of another package whose
// fact has an effect.
func (r *Result) callEffect(c *Context, call ssa.CallInstruction, b *ssa.BasicBlock) (Effect, bool) {
	com := call.Common()
	expr := r.callAt(call)
	if expr == nil {
		return Effect{}, false
	}
	e := Effect{Pos: expr.Pos(), End: expr.End(), Call: expr, param: -1}
	if bi, ok := com.Value.(*ssa.Builtin); ok {
		if bi.Name() == "print" || bi.Name() == "println" {
			e.Class, e.Name = "print", bi.Name()
			return e, true
		}
		return e, false
	}
	var fn *types.Func
	var recv ssa.Value
	if com.IsInvoke() {
		fn, recv = com.Method, com.Value
	} else if callee := com.StaticCallee(); callee != nil {
		if r.flow.local(callee) {
			return e, false // its body is a context of its own
		}
		fn, _ = callee.Object().(*types.Func)
		if fn != nil && fn.Signature().Recv() != nil && len(com.Args) > 0 {
			recv = com.Args[0]
		}
	}
	if fn == nil || fn.Pkg() == nil {
		return e, false
	}
	args := com.Args
	if !com.IsInvoke() && recv != nil {
		args = args[1:]
	}
	class := effectClass(fn)
	e.Class = class
	e.Name = fn.Pkg().Name() + "." + fn.Name()
	if recv != nil {
		e.Name = types.ExprString(ast.Unparen(expr.Fun))
		if sel, ok := ast.Unparen(expr.Fun).(*ast.SelectorExpr); ok && fn.Pkg().Path() == "log" {
			_ = sel
			e.Name = "log." + fn.Name()
		}
	}
	switch class {
	case "":
		return r.factEffect(c, call, b, e)
	case "print", "io":
		// Output to a writer the trace makes (a local buffer) is not output.
		if w := writerArg(fn, recv, args); w != nil {
			p, ok := r.outlives(c, w, b)
			e.param = p
			return e, ok || isStdStream(w)
		}
		return e, true
	case "draw":
		if recv == nil {
			return e, true // the package's own generator
		}
		if r.deterministic(c, recv, b) {
			return e, false
		}
		e.param = r.paramOf(c.value(recv, b))
		return e, true
	case "atomic", "lock":
		if recv != nil && r.released(c, call, fn, recv, b) {
			return e, false // a critical section the function opens and closes: it guards other effects, which are found themselves
		}
		target := recv
		if target == nil && len(args) > 0 {
			target = args[0]
		}
		if target == nil {
			return e, true
		}
		p, ok := r.outlives(c, target, b)
		e.param = p
		return e, ok
	}
	return e, true
}

// lockPairs are the methods of sync's mutexes that close what each opens,
// and the other way round.
var lockPairs = map[string]string{"Lock": "Unlock", "Unlock": "Lock", "RLock": "RUnlock", "RUnlock": "RLock"}

// released reports whether call, fn of a sync.Mutex or RWMutex on recv,
// is one end of a critical section that its function both opens and
// closes on the same mutex (Lock with an Unlock, deferred or not, or the
// other way round): the mutex is as it was once the function returns, so
// the section is not an effect of its own.
func (r *Result) released(c *Context, call ssa.CallInstruction, fn *types.Func, recv ssa.Value, b *ssa.BasicBlock) bool {
	pair := lockPairs[fn.Name()]
	if n, ok := derefNamed(fn.Signature().Recv().Type()); !ok || pair == "" || n.Obj().Name() != "Mutex" && n.Obj().Name() != "RWMutex" {
		return false
	}
	mutex := c.value(recv, b).String()
	for _, blk := range call.Parent().Blocks {
		for _, instr := range blk.Instrs {
			other, ok := instr.(ssa.CallInstruction)
			if !ok || other == call {
				continue
			}
			callee := other.Common().StaticCallee()
			if callee == nil || callee.Object() == nil || callee.Object().Pkg() != fn.Pkg() || callee.Name() != pair || len(other.Common().Args) == 0 {
				continue
			}
			if c.value(other.Common().Args[0], blk).String() == mutex {
				return true
			}
		}
	}
	return false
}

// factEffect reports a call of another package's function whose fact has
// an effect, unconditional or through an argument that outlives the trace.
func (r *Result) factEffect(c *Context, call ssa.CallInstruction, b *ssa.BasicBlock, e Effect) (Effect, bool) {
	callee := call.Common().StaticCallee()
	if callee == nil {
		return e, false
	}
	fact := r.flow.funcFact(callee)
	if fact == nil {
		return e, false
	}
	for i := range fact.Problems {
		p := &fact.Problems[i]
		if p.Kind != "effect" {
			continue
		}
		if p.Param >= 0 {
			if p.Param >= len(call.Common().Args) {
				continue
			}
			if _, ok := r.outlives(c, call.Common().Args[p.Param], b); !ok {
				continue
			}
			e.Target = r.describeValue(c, call.Common().Args[p.Param], b)
		}
		e.Class, e.Callee, e.Problem = "external", callee.Object().(*types.Func), p
		return e, true
	}
	return e, false
}

// effectClass classifies the functions of the standard library that
// communicate ("" for the others).
func effectClass(fn *types.Func) string {
	path, name := fn.Pkg().Path(), fn.Name()
	recvName := ""
	if recv := fn.Signature().Recv(); recv != nil {
		if n, ok := derefNamed(recv.Type()); ok {
			recvName = n.Obj().Name()
		}
	}
	switch path {
	case "fmt":
		if strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fprint") {
			return "print"
		}
	case "log":
		if recvName == "" || recvName == "Logger" {
			for _, p := range []string{"Print", "Fatal", "Panic", "Output"} {
				if strings.HasPrefix(name, p) {
					return "print"
				}
			}
		}
	case "log/slog":
		switch strings.TrimSuffix(name, "Context") {
		case "Debug", "Info", "Warn", "Error", "Log", "LogAttrs":
			return "print"
		}
	case "time":
		if recvName == "" && (name == "Now" || name == "Since" || name == "Until") {
			return "clock"
		}
	case "math/rand", "math/rand/v2":
		if recvName == "" && (strings.HasPrefix(name, "New") || name == "Seed") {
			return ""
		}
		if recvName == "" || recvName == "Rand" || recvName == "Zipf" {
			return "draw"
		}
	case "crypto/rand":
		return "draw"
	case "sync/atomic":
		if !strings.HasPrefix(name, "Load") {
			return "atomic"
		}
	case "sync":
		switch recvName {
		case "Mutex", "RWMutex", "WaitGroup", "Cond":
			return "lock"
		}
	case "os":
		switch {
		case recvName == "File" && (strings.HasPrefix(name, "Write") || strings.HasPrefix(name, "Read") || name == "Close" || name == "Sync"),
			recvName == "" && name != "Getpagesize" && !strings.HasPrefix(name, "Is") && name != "NewSyscallError":
			return "io"
		}
	case "io":
		if name == "WriteString" || name == "Copy" || name == "CopyN" || name == "ReadAll" || name == "ReadFull" {
			return "io"
		}
	case "bufio":
		if recvName == "Writer" && (strings.HasPrefix(name, "Write") || name == "Flush") {
			return "io"
		}
	case "net", "net/http", "os/exec", "syscall":
		return "io"
	}
	return ""
}

// writerArg returns what a print writes to, when it is a value of the
// program (fmt.Fprintf's writer, a Logger's receiver).
func writerArg(fn *types.Func, recv ssa.Value, args []ssa.Value) ssa.Value {
	if recv != nil {
		return recv
	}
	if strings.HasPrefix(fn.Name(), "Fprint") || fn.Pkg().Path() == "io" {
		if len(args) > 0 {
			return args[0]
		}
	}
	return nil
}

// isStdStream reports whether v is os.Stdout or os.Stderr.
func isStdStream(v ssa.Value) bool {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if g, ok := u.X.(*ssa.Global); ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "os" && (g.Name() == "Stdout" || g.Name() == "Stderr") {
			return true
		}
	}
	return false
}

// outlives reports whether the memory v (an address, a map, a channel, a
// pointer receiver) points to outlives the trace of c, and through which
// parameter of a summary context it is reached (-1: none).
func (r *Result) outlives(c *Context, v ssa.Value, b *ssa.BasicBlock) (int, bool) {
	return r.outlivesExpr(c.value(v, b))
}

func (r *Result) outlivesExpr(e *Expr) (int, bool) {
	param, any := -1, false
	for _, a := range alternatives(unwrapIface(e)) {
		switch {
		case a.Kind == kPtr && a.Site != nil && a.Site != "value":
			if _, global := a.Site.(*ssa.Global); global {
				any = true
				continue
			}
			// Allocated in a traced run: the trace's own memory.
			if a.Env != nil && a.Env.Mode == exprTrue {
				continue
			}
			any = true
		case a.Kind == kPtr:
			// Through a traced argument (a pytree's pointer), or an address
			// below another: the memory of what it is made from.
			if p, ok := r.outlivesExpr(a.Args[0]); ok {
				param, any = max(param, p), true
			}
		case a.Kind == kInput:
			param, any = a.N, true
		case a.Kind == kFresh:
			// A pointer an outside call made (a logger, a file) outlives
			// the trace; one made while tracing does not; one another
			// package keeps in a variable (os.Stderr) does.
			if instr, ok := a.Site.(ssa.Instruction); ok && !r.tracedFn(instr.Parent()) {
				any = true
			}
			if _, ok := a.Site.(*ssa.Global); ok {
				any = true
			}
		case a.Kind == kStruct:
			for _, f := range a.Args {
				if f != nil && f.Kind == kInput {
					param, any = f.N, true
				}
			}
		case a.Kind == kLoad || a.Kind == kField || a.Kind == kIndex:
			if p, ok := r.outlivesExpr(a.Args[0]); ok {
				param, any = max(param, p), true
			}
		}
	}
	return param, any
}

// paramOf returns the parameter of a summary context that e is (-1: none).
func (r *Result) paramOf(e *Expr) int {
	for _, a := range alternatives(e) {
		if a.Kind == kInput {
			return a.N
		}
	}
	return -1
}

// deterministic reports whether the generator recv is made in traced code
// from constants and static arguments only (rand.New(rand.NewSource(7))):
// it gives the same numbers on every call, traced or not, so freezing them
// into the program changes nothing.
func (r *Result) deterministic(c *Context, recv ssa.Value, b *ssa.BasicBlock) bool {
	alts := alternatives(c.value(recv, b))
	for _, g := range alts {
		if g.Kind != kPure || !strings.HasPrefix(g.Name, "math/rand") || !r.madeInTrace(g) {
			return false
		}
		fixed := !g.mentions(func(a *Expr) bool {
			switch a.Kind {
			case kFresh, kUnknown, kParam, kFree, kLoad, kApply:
				return true
			case kInput:
				return a.Tr != exprFalse || !strings.Contains(a.Name, "static")
			}
			return false
		})
		if !fixed {
			return false
		}
	}
	return len(alts) > 0
}

// madeInTrace reports whether a generator's constructor call runs in a
// traced function.
func (r *Result) madeInTrace(g *Expr) bool {
	instr, ok := g.Site.(ssa.Instruction)
	return ok && r.tracedFn(instr.Parent())
}

// tracedFn reports whether fn runs inside a trace.
func (r *Result) tracedFn(fn *ssa.Function) bool {
	for _, c := range r.contexts {
		if c.Fn == fn {
			return true
		}
	}
	return false
}

// assigned returns the left-hand side of the assignment (or ++/--) that a
// store at pos makes: pos is the statement's token or within the
// left-hand side (the field of a selector).
func (r *Result) assigned(pos token.Pos) ast.Expr {
	f := r.File(pos)
	if !pos.IsValid() || f == nil {
		return nil
	}
	var lhs ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || n.Pos() > pos || n.End() < pos {
			return false
		}
		switch s := n.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				break
			}
			for _, l := range s.Lhs {
				if l.Pos() <= pos && pos < l.End() || s.TokPos == pos && len(s.Lhs) == 1 {
					lhs = l
				}
			}
		case *ast.IncDecStmt:
			lhs = s.X
		}
		return true
	})
	return lhs
}

// describeWrite names the memory an assignment to lhs changes.
func (r *Result) describeWrite(c *Context, lhs ast.Expr) string {
	id := rootIdent(lhs)
	if id == nil {
		return types.ExprString(lhs)
	}
	v, _ := r.Info.Uses[id].(*types.Var)
	switch {
	case v == nil:
		return types.ExprString(lhs)
	case v.Pkg() != nil && v.Parent() == v.Pkg().Scope():
		return "package variable " + v.Name()
	case isRecv(c.Fn, v):
		return types.ExprString(lhs) + " (state of the receiver, which outlives the trace)"
	}
	return "captured variable " + v.Name()
}

// describeValue names the variable whose memory a value (a receiver
// that outlives the trace) is.
func (r *Result) describeValue(c *Context, v ssa.Value, b *ssa.BasicBlock) string {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	switch x := v.(type) {
	case *ssa.Global:
		return "package variable " + x.Name()
	case *ssa.FreeVar:
		return "captured variable " + x.Name()
	case *ssa.Alloc:
		if x.Comment != "" {
			return "captured variable " + x.Comment
		}
	}
	return "memory that outlives the trace"
}

// isRecv reports whether v is the receiver of fn (or of the method a
// bound method value of fn wraps).
func isRecv(fn *ssa.Function, v *types.Var) bool {
	if fn.Signature.Recv() != nil && fn.Signature.Recv() == v {
		return true
	}
	if decl, ok := fn.Syntax().(*ast.FuncDecl); ok && decl.Recv != nil {
		for _, f := range decl.Recv.List {
			for _, n := range f.Names {
				if n.Pos() == v.Pos() {
					return true
				}
			}
		}
	}
	return false
}

// rootIdent returns the variable at the root of x, x.f, x[i], *x.
func rootIdent(e ast.Expr) *ast.Ident {
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

// onceFiredEagerly reports whether c is (below) the function given to a
// sync.Once's Do that main fires before its first jitted call: its body
// then never runs in a trace.
func (r *Result) onceFiredEagerly(c *Context) bool {
	for ; c != nil && c.Parent != nil; c = c.Parent {
		call, ok := c.Call.(ssa.CallInstruction)
		if !ok || !isOnceDo(call.Common()) {
			continue
		}
		once := c.Parent.value(call.Common().Args[0], call.Block())
		if r.flow.firedBeforeJit(once) {
			return true
		}
	}
	return false
}

// isOnceDo reports whether a call is (*sync.Once).Do.
func isOnceDo(com *ssa.CallCommon) bool {
	callee := com.StaticCallee()
	if callee == nil || len(com.Args) != 2 {
		return false
	}
	fn, ok := callee.Object().(*types.Func)
	return ok && fn.Name() == "Do" && fn.Pkg() != nil && fn.Pkg().Path() == "sync"
}

// firedBeforeJit reports whether main calls Do on the Once once (directly
// or through functions it calls) before its first call of a jitted
// function.
func (f *flow) firedBeforeJit(once *Expr) bool {
	main, ok := f.ssa.Members["main"].(*ssa.Function)
	if !ok || f.pkg.Name() != "main" {
		return false
	}
	var fires func(fn *ssa.Function, depth int) (fired, jitted bool)
	fires = func(fn *ssa.Function, depth int) (bool, bool) {
		if depth > 3 {
			return false, false
		}
		s := f.summary(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				com := call.Common()
				if isOnceDo(com) && sameBase(s.operand(com.Args[0], b), once) {
					return true, false
				}
				for _, t := range f.targets(s, com, b) {
					if t.jitted != nil {
						return false, true
					}
					if fired, jitted := fires(t.fn, depth+1); fired || jitted {
						return fired, jitted
					}
				}
			}
		}
		return false, false
	}
	fired, _ := fires(main, 0)
	return fired
}

// sameBase reports whether two pointers point into the same base.
func sameBase(a, b *Expr) bool {
	for _, x := range alternatives(a) {
		for _, y := range alternatives(b) {
			if x.Kind == kPtr && y.Kind == kPtr && x.Site != nil && x.Site == y.Site && len(x.Args) == len(y.Args) {
				return true
			}
		}
	}
	return false
}

// written is the field path below its root variable that a write changes
// ("Steps" for a.Steps), or "".
func (e Effect) written() string {
	if e.Class != "write" {
		return ""
	}
	t := e.Target
	if i := strings.Index(t, " "); i >= 0 {
		t = t[:i]
	}
	if _, rest, ok := strings.Cut(t, "."); ok {
		return rest
	}
	return ""
}

// EffectMessage explains an effect of the package.
func EffectMessage(e Effect) string {
	switch e.Class {
	case "write":
		return "assignment to " + e.Target + " runs once per trace, not on every call; return the value from the traced function instead"
	case "clock":
		return e.Name + " reads the clock once, at trace time: the compiled program keeps that value on every call. Pass the time as an argument"
	case "draw":
		return e.Name + " draws once, at trace time: the compiled program reuses that number on every call. Pass random values (or a seed array) as arguments"
	case "atomic":
		return e.Name + " updates shared state once per trace, not on every call; count calls outside the traced function (or read Stats)"
	case "lock":
		return e.Name + " locks or signals shared state once per trace, not on every call; synchronise outside the traced function"
	case "channel":
		return e.Name + " on a channel runs once per trace, not on every call; return the value from the traced function and communicate outside it"
	case "io":
		return e.Name + " does I/O once per trace, not on every call; do it outside the traced function"
	}
	return e.Name + " runs once per trace, not on every call; use jit.DebugPrint to print at run time"
}
