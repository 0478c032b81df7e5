package traced

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/jitlint/jitlint/internal/jitapi"
)

// Facts: each exported function is summarised for the packages that
// import it, in terms of its parameters: what it returns (so a schedule or
// a bucket chooser of another package takes its few values, a helper's
// size is worked out from the importer's arguments), how many operations
// it stages, and what goes wrong when traced code calls it — a host
// conversion or an effect that a traced argument (or any trace) reaches,
// a loop whose trip count is an expression of its parameters. The
// importer substitutes its own arguments.

// FuncFact is the traced analyzer's fact about an exported function.
type FuncFact struct {
	// Results are the function's results as expressions of its
	// parameters (nil entries: not known).
	Results []*SExpr
	// Ops is about how many operations one run stages.
	Ops int
	// Problems are what goes wrong when traced code calls it.
	Problems []Problem
	// Method is set for a method (its parameter 0 is the receiver).
	Method bool
}

// AFact marks FuncFact as an analysis fact.
func (*FuncFact) AFact() {}

// String is the fact's form in analysistest expectations.
func (f *FuncFact) String() string {
	var parts []string
	for _, p := range f.Problems {
		if p.Kind == "loop" {
			parts = append(parts, fmt.Sprintf("loop at %s: %s times, %d ops each", p.Pos, p.Trips, p.Ops))
			for _, k := range p.Calls {
				parts[len(parts)-1] += fmt.Sprintf(" and what p%d stages", k)
			}
			continue
		}
		msg, _, _ := strings.Cut(p.Message, ";")
		switch {
		case p.Detail != "" && f.Method && p.Param == 0:
			msg = "writes its receiver's " + p.Detail
		case p.Detail != "":
			msg = fmt.Sprintf("writes %s of its parameter %d", p.Detail, p.Param)
		}
		parts = append(parts, fmt.Sprintf("%s: param %d at %s: %s", p.Kind, p.Param, p.Pos, msg))
	}
	if f.Ops > 0 {
		parts = append(parts, fmt.Sprintf("stages %d ops", f.Ops))
	}
	for _, r := range f.Results {
		if r.K != kUnknown {
			parts = append(parts, "returns "+r.String())
		}
	}
	return strings.Join(parts, "; ")
}

// A Problem is a finding that a call from traced code reaches.
type Problem struct {
	// Kind is "conversion", "effect" or "loop".
	Kind string
	// Param is the parameter it depends on: traced for a conversion,
	// outliving the trace for an effect through it (-1: none, it happens
	// in any trace).
	Param int
	// Pos is the file:line of the problem, Message what it is; Detail is,
	// for an effect through a parameter, the part of it written (a field
	// of a receiver).
	Pos, Message, Detail string
	// Trips is a loop's trip count in terms of the parameters, and Ops the
	// operations one iteration stages; Calls are the function-valued
	// parameters one iteration calls, whose operations the importer adds
	// for the functions it passes.
	Trips *SExpr
	Ops   int
	Calls []int
}

// SExpr is the serialised form of an expression of a function's
// parameters.
type SExpr struct {
	K    Kind
	Op   token.Token
	N    int
	V    string
	Name string
	Args []*SExpr
}

// String writes the expression (for fact expectations).
func (s *SExpr) String() string {
	if s == nil {
		return "?"
	}
	switch s.K {
	case kConst:
		return s.V[1:]
	case kParam:
		return fmt.Sprintf("p%d", s.N)
	}
	var args []string
	for _, a := range s.Args {
		args = append(args, a.String())
	}
	name := kindNames[s.K]
	if s.K == kOp {
		name = s.Op.String()
	} else if s.Name != "" {
		name += ":" + s.Name
	}
	return name + "(" + strings.Join(args, " ") + ")"
}

// encode serialises e, an expression of fn's parameters (nil: it is not
// one).
func (f *flow) encode(e *Expr, fn *ssa.Function, depth int) *SExpr {
	if e == nil || depth > 16 {
		return nil
	}
	s := &SExpr{K: e.Kind, Op: e.Op, N: e.N, Name: e.Name}
	switch e.Kind {
	case kConst:
		switch e.Val.Kind() {
		case constant.Int:
			s.V = "i" + e.Val.ExactString()
		case constant.Float:
			f, _ := constant.Float64Val(e.Val)
			s.V = "f" + fmt.Sprint(f)
		case constant.Bool:
			s.V = "b" + e.Val.ExactString()
		case constant.String:
			s.V = "s" + e.Val.ExactString()
		default:
			return nil
		}
		return s
	case kParam:
		if e.Fn != fn {
			return nil
		}
		return s
	case kFunc:
		return f.encodeClosure(e, fn, depth)
	case kConv:
		// A conversion to a basic type (float64(epoch / 30)), by its name.
		b, ok := types.Unalias(e.Type).(*types.Basic)
		if !ok || types.Universe.Lookup(b.Name()) == nil {
			return nil
		}
		s.Name = b.Name()
	case kSelect:
		if c := f.encode(e.Args[0], fn, depth+1); c == nil {
			// A condition not expressible in the parameters (a search loop's
			// stopping point): one of the two values.
			return f.encode(choice(e.Args[1], e.Args[2]), fn, depth)
		}
	case kAtExit:
		if geometric(e.Args[0]) {
			return bucketOf(e.Args[0].Loop, fn)
		}
		// The value once a loop is done, where what the loop changes is
		// not expressible: what is left of it (some element of a slice
		// the loop searched).
		return f.encode(e.Args[0], fn, depth+1)
	case kLoad:
		if p := e.Args[0]; p.Kind == kPtr && p.Site == nil && p.Name == "elem" && len(p.Args) == 2 {
			return f.encode(index(p.Args[0], p.Args[1]), fn, depth) // an element of a slice
		}
		return nil
	case kIndex:
		if len(e.Args) == 2 && f.encode(e.Args[1], fn, depth+1) == nil {
			// An index not expressible in the parameters: some element.
			x := f.encode(e.Args[0], fn, depth+1)
			if x == nil {
				return nil
			}
			s.Args = []*SExpr{x, {K: kUnknown}}
			return s
		}
	case kOp, kPure, kChoice, kSeq, kLen, kField, kStruct, kTuple, kShape:
	case kArray:
		// An array of dims not expressible in the parameters is still an
		// array: of dims not known.
		for _, d := range e.Dims {
			sd := f.encode(d, fn, depth+1)
			if sd == nil {
				s.Args = nil
				break
			}
			s.Args = append(s.Args, sd)
		}
		if e.Dims == nil || len(s.Args) != len(e.Dims) {
			s.N = -1
		}
		return s
	default:
		return nil
	}
	for _, a := range e.Args {
		if a == nil {
			s.Args = append(s.Args, &SExpr{K: kUnknown})
			continue
		}
		sa := f.encode(a, fn, depth+1)
		if sa == nil && (e.Kind == kStruct || e.Kind == kTuple) {
			// A field made by the call (a new value on each call); the
			// others still say what the call passes through.
			sa = &SExpr{K: kFresh}
		}
		if sa == nil {
			return nil
		}
		s.Args = append(s.Args, sa)
	}
	return s
}

// bucketName names a result that a loop of another package multiplies
// until it covers its arguments (a bucket by powers of two): one of a few
// values, that changes only when the parameters it reads do (its Args).
const bucketName = "bucket"

// bucketOf is the bucket that the geometric loop l of fn leaves, over the
// parameters that l starts from and tests.
func bucketOf(l *Loop, fn *ssa.Function) *SExpr {
	out := &SExpr{K: kPure, Name: bucketName}
	seen := map[int]bool{}
	for _, e := range slices.Concat(l.init, l.next, []*Expr{l.enter, l.pre, l.post}) {
		if e == nil {
			continue
		}
		e.walk(func(a *Expr) bool {
			if a.Kind == kParam && a.Fn == fn && a.N >= 0 && !seen[a.N] {
				seen[a.N] = true
				out.Args = append(out.Args, &SExpr{K: kParam, N: a.N})
			}
			return true
		})
	}
	return out
}

// lambdaName names a function value that a summary from another package
// describes by what it returns: a closure that a factory returns (a
// learning-rate schedule made of the factory's arguments). Its Args[0] is
// its result, in which parameter i of the closure is the Param atom -1-i of
// its Env.Fn.
const lambdaName = "λ"

// encodeClosure serialises the closure e that fn returns as its result
// in terms of its own parameters and fn's (nil when it has none).
func (f *flow) encodeClosure(e *Expr, fn *ssa.Function, depth int) *SExpr {
	c := e.Fn
	if c == nil || c.Parent() == nil || c.Signature.Results().Len() != 1 || c.Signature.Variadic() {
		return nil
	}
	params := make([]*Expr, len(c.Params))
	for i := range params {
		params[i] = lambdaParam(fn, i)
	}
	env := &Env{Fn: c, Params: params}
	if e.Env != nil {
		env.Frees = e.Env.Frees
	}
	body := f.encode(f.subst(f.summary(c).result(0), env), fn, depth+1)
	if body == nil {
		return nil
	}
	return &SExpr{K: kFunc, Name: lambdaName, N: len(params), Args: []*SExpr{body}}
}

// lambdaParam is parameter i of a closure described by what it returns,
// in the summary of fn.
func lambdaParam(fn *ssa.Function, i int) *Expr {
	p := node(kParam)
	p.Fn, p.N = fn, -1-i
	return p
}

// applyLambda is the result of calling the function value lam (see
// lambdaName) with args.
func (f *flow) applyLambda(lam *Expr, args []*Expr) *Expr {
	if len(lam.Args) != 1 || lam.Env == nil || len(args) != lam.N {
		return unknown
	}
	return (&substituter{f: f, env: &Env{Fn: lam.Env.Fn}, memo: map[*Expr]*Expr{}, lambda: args}).do(lam.Args[0])
}

// decode rebuilds an expression of fn's parameters, for a call at site.
func decode(s *SExpr, fn *ssa.Function, site any) *Expr {
	if s == nil || s.K == kUnknown {
		return unknown
	}
	args := make([]*Expr, len(s.Args))
	for i, a := range s.Args {
		if a != nil {
			args[i] = decode(a, fn, site)
		}
	}
	switch s.K {
	case kFresh:
		return fresh(site)
	case kConst:
		switch s.V[0] {
		case 'i':
			return constOf(constant.MakeFromLiteral(s.V[1:], token.INT, 0))
		case 'f':
			return constOf(constant.MakeFromLiteral(s.V[1:], token.FLOAT, 0))
		case 'b':
			return boolConst(s.V[1:] == "true")
		case 's':
			return constOf(constant.MakeFromLiteral(s.V[1:], token.STRING, 0))
		}
		return unknown
	case kParam:
		e := node(kParam)
		e.Fn, e.N = fn, s.N
		return e
	case kOp:
		if len(args) == 1 {
			return op(s.Op, args[0], nil)
		}
		return op(s.Op, args[0], args[1])
	case kPure:
		return pure(s.Name, args)
	case kSelect:
		return sel(args[0], args[1], args[2])
	case kChoice:
		return choice(args...)
	case kIndex:
		return index(args[0], args[1])
	case kLen:
		return length(args[0])
	case kShape:
		return shapeOf(args[0]) // the dims of the array the importer passes
	case kField:
		return field(args[0], s.N)
	case kConv:
		if len(args) != 1 || types.Universe.Lookup(s.Name) == nil {
			return unknown
		}
		return conv(args[0], types.Universe.Lookup(s.Name).Type())
	case kFunc:
		if s.Name != lambdaName || len(args) != 1 {
			return unknown
		}
		e := node(kFunc, args[0])
		e.Name, e.N, e.Env = lambdaName, s.N, &Env{Fn: fn}
		return e
	case kArray:
		if s.N == -1 {
			return array("external", nil, nil, nil, unknown)
		}
		return array("external", nil, nil, args, unknown)
	}
	e := node(s.K, args...)
	e.N, e.Name = s.N, s.Name
	return e
}

// factResults are what another package's fact says fn returns for args,
// per result (nil for a result the fact does not know, and without a fact).
func (f *flow) factResults(fn *ssa.Function, args []*Expr, site any) []*Expr {
	fact := f.funcFact(fn)
	if fact == nil || len(fact.Results) == 0 {
		return nil
	}
	env := &Env{Fn: fn, Params: args}
	outs := make([]*Expr, len(fact.Results))
	for i, r := range fact.Results {
		if r == nil {
			continue
		}
		if v := f.subst(decode(r, fn, site), env); v.Kind != kUnknown {
			outs[i] = v
		}
	}
	return outs
}

// funcFact imports the fact of a function of another package.
func (f *flow) funcFact(fn *ssa.Function) *FuncFact {
	obj, ok := fn.Object().(*types.Func)
	if !ok || f.importFact == nil || obj.Pkg() == f.pkg {
		return nil
	}
	var fact FuncFact
	if !f.importFact(obj.Origin(), &fact) {
		return nil
	}
	return &fact
}

// exportFacts exports a FuncFact for each exported function of the package.
func (f *flow) exportFacts(pass *analysis.Pass, r *Result) {
	for _, fn := range f.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Origin() != nil || !obj.Exported() || fn.Synthetic != "" {
			continue
		}
		fact := &FuncFact{Ops: f.opsOf(fn), Method: fn.Signature.Recv() != nil}
		s := f.summary(fn)
		for i := range fn.Signature.Results().Len() {
			res := s.result(i)
			enc := f.encode(res, fn, 0)
			if enc == nil {
				if vs := f.values(res); vs.vals != nil && len(vs.vals) <= maxAlternatives && len(vs.vals) > 0 {
					alts := make([]*Expr, len(vs.vals))
					for k, v := range vs.vals {
						alts[k] = constOf(v)
					}
					enc = f.encode(choice(alts...), fn, 0)
				}
			}
			if enc == nil {
				enc = &SExpr{K: kUnknown}
			}
			fact.Results = append(fact.Results, enc)
		}
		if r != nil && f.mayHaveProblems(fn, map[*ssa.Function]bool{}) {
			fact.Problems = r.problemsOf(fn)
		}
		if r != nil {
			fact.Problems = append(fact.Problems, r.loopProblems(fn)...)
		}
		if fact.Ops > 0 || len(fact.Problems) > 0 || hasResult(fact.Results) {
			pass.ExportObjectFact(obj, fact)
		}
	}
}

// mayHaveProblems reports whether running fn could convert a traced value
// to the host or have an effect, from its instructions alone: a call of
// anything but a jit operation that stages, a builtin that neither writes
// nor prints, or a function of the package that may not; a store into
// memory it did not allocate; a channel operation, a map update, a go or
// defer. A function that stages jit operations and nothing else (most of
// a model's code) has no problems, so the contexts that would look for
// them are not built.
func (f *flow) mayHaveProblems(fn *ssa.Function, busy map[*ssa.Function]bool) bool {
	if v, ok := f.problemFree[fn]; ok {
		return !v
	}
	if busy[fn] {
		return true // recursion: not looked into
	}
	busy[fn] = true
	may := f.mayHaveProblemsIn(fn, busy)
	if f.problemFree == nil {
		f.problemFree = map[*ssa.Function]bool{}
	}
	f.problemFree[fn] = !may
	return may
}

func (f *flow) mayHaveProblemsIn(fn *ssa.Function, busy map[*ssa.Function]bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Call:
				if b, ok := x.Call.Value.(*ssa.Builtin); ok {
					if !pureBuiltins[b.Name()] {
						return true
					}
					continue
				}
				callee := x.Call.StaticCallee()
				switch {
				case x.Call.IsInvoke() || callee == nil:
					return true
				case jitStages(callee):
				case f.local(callee) && !f.mayHaveProblems(callee, busy):
				default:
					return true
				}
			case *ssa.Store:
				if a, ok := addrRoot(x.Addr).(*ssa.Alloc); !ok || a.Parent() != fn || escapes(a) {
					return true
				}
			case *ssa.Send, *ssa.Select, *ssa.MapUpdate, *ssa.Go, *ssa.Defer:
				return true
			case *ssa.UnOp:
				if x.Op == token.ARROW {
					return true
				}
			}
		}
	}
	return false
}

// loopProblems are fn's loops that stage operations and run a number of
// times that fn's parameters set (for i := 0; i < n; i++, with n a
// parameter): an importer that calls fn from traced code counts them with
// its own arguments (externalLoops). Loops of a constant count are the
// package's own findings.
func (r *Result) loopProblems(fn *ssa.Function) []Problem {
	f := r.flow
	s := f.summary(fn)
	var out []Problem
	for _, l := range s.loops {
		if l.Stmt == nil {
			continue
		}
		s.solve(l)
		if l.trips == nil || !l.trips.mentions(func(a *Expr) bool { return a.Kind == kParam && a.Fn == fn }) {
			continue
		}
		trips := f.encode(l.trips, fn, 0)
		ops := 0
		var calls []int
		for _, b := range l.body {
			ops += f.blockOps(b)
			calls = append(calls, paramCalls(s, b)...)
		}
		slices.Sort(calls)
		calls = slices.Compact(calls)
		if trips == nil || ops == 0 && calls == nil {
			continue
		}
		out = append(out, Problem{Kind: "loop", Param: -1, Pos: r.Where(l.Stmt.Pos()), Trips: trips, Ops: ops, Calls: calls})
	}
	return out
}

// paramCalls are the parameters of b's function that b calls as
// functions (with repeats).
func paramCalls(s *summary, b *ssa.BasicBlock) []int {
	var out []int
	for _, instr := range b.Instrs {
		call, ok := instr.(ssa.CallInstruction)
		if !ok || call.Common().IsInvoke() || call.Common().StaticCallee() != nil {
			continue
		}
		if v := s.operand(call.Common().Value, b); v.Kind == kParam && v.Fn == b.Parent() {
			out = append(out, v.N)
		}
	}
	return out
}

// pureBuiltins are the builtins that neither write memory nor print.
var pureBuiltins = map[string]bool{"len": true, "cap": true, "append": true, "min": true, "max": true, "complex": true, "real": true, "imag": true}

// jitStages reports whether fn is a jit operation that stages (an Array
// method or a jit function that builds the trace).
func jitStages(fn *ssa.Function) bool {
	name := jitName(fn)
	m, isMethod := arrayMethod(name)
	return isMethod && jitapi.StagingMethod(m) || !isMethod && name != "" && jitapi.StagingFunc(name)
}

func hasResult(rs []*SExpr) bool {
	for _, r := range rs {
		if r.K != kUnknown {
			return true
		}
	}
	return false
}

func derefNamed(t types.Type) (*types.Named, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return n, ok
}

// LocalModule reports whether m is a module whose source is local — the
// main module, a workspace module or a directory replacement: its version
// is not known. Schedules and bucket choosers that jitted code calls live
// in such modules, in packages that need not import jit.
func LocalModule(m *analysis.Module) bool { return m != nil && m.Path != "" && m.Version == "" }

// NeedsFacts reports whether a package needs the jitlint analyzers to run
// for its facts: it imports jit, or it belongs to a local module and
// declares an exported function with a result (MayChoose). Every driver
// (the jitlint command, go vet, jitls) asks it, so that all see the same
// facts.
func NeedsFacts(importsJit bool, m *analysis.Module, files []*ast.File) bool {
	return importsJit || LocalModule(m) && mayChoose(files)
}

// mayChoose reports, from syntax alone, whether files declare an exported
// function with one result whose value may be summarised (a schedule, a
// bucket chooser).
func mayChoose(files []*ast.File) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Recv == nil && fd.Name.IsExported() && fd.Type.Results != nil && fd.Type.Results.NumFields() == 1 {
				return true
			}
		}
	}
	return false
}

// opsOf is about how many operations one run of fn stages: its jit
// operations and those of the functions it calls.
func (f *flow) opsOf(fn *ssa.Function) int {
	if f.ops == nil {
		f.ops = map[*ssa.Function]int{}
	}
	if n, ok := f.ops[fn]; ok {
		return n
	}
	f.ops[fn] = 0 // recursion counts once
	n := 0
	for _, b := range fn.Blocks {
		n += f.blockOps(b)
		if n > maxOps {
			n = maxOps
			break
		}
	}
	f.ops[fn] = n
	return n
}

// maxOps caps operation counts.
const maxOps = 1 << 20

// blockOps counts the operations the calls of block b stage.
func (f *flow) blockOps(b *ssa.BasicBlock) int {
	n := 0
	s := f.summary(b.Parent())
	for _, instr := range b.Instrs {
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			continue
		}
		n += f.callOps(s, call, b)
	}
	return n
}

// callOps is the operations one call stages.
func (f *flow) callOps(s *summary, call ssa.CallInstruction, b *ssa.BasicBlock) int {
	com := call.Common()
	if callee := com.StaticCallee(); callee != nil {
		if jitName(callee) != "" {
			if jitStages(callee) {
				return 1
			}
			return 0
		}
		if f.local(callee) {
			return f.opsOf(callee)
		}
		if fact := f.funcFact(callee); fact != nil {
			return fact.Ops
		}
		return 0
	}
	best := 0
	for _, t := range f.targets(s, com, b) {
		best = max(best, f.opsOf(t.fn))
	}
	return best
}
