package staticargs

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

//go:embed doc.go
var docGo string

// Analyzer is the staticargs analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh staticargs analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewAnalyzer("staticargs", docGo, tracer, func(pass *analysis.Pass, r *traced.Result) {
		defs := definitions(r)
		for _, j := range r.Jitted {
			checkJitInLoop(r, j, pass.Report)
			for _, call := range j.Calls {
				checkCall(r, defs, j, call, pass.Report)
			}
		}
	})
}

// checkJitInLoop reports a jit.Jit call inside a loop.
func checkJitInLoop(r *traced.Result, j *traced.Jitted, report func(analysis.Diagnostic)) {
	stack := r.PathTo(j.Call)
	loops := traced.Loops(stack)
	if len(loops) == 0 {
		checkJitInRepeatedFunc(r, j, stack, report)
		return
	}
	if buildsTable(r, j, stack, loops[len(loops)-1]) {
		return
	}
	d := analysis.Diagnostic{
		Pos: j.Call.Pos(), End: j.Call.End(),
		Message: "jit.Jit is called on every iteration of this loop: each call makes a new wrapper with an empty cache, " +
			"so every call traces and compiles again. Create the jitted function once, before the loop",
	}
	if fix, ok := hoistFix(r, j.Call, stack, loops[len(loops)-1]); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	report(d)
}

// checkCall reports the problems of the static arguments of one call:
// the positional ones (jit.StaticArgnums) and the `jit:"static"` fields of
// struct arguments.
func checkCall(r *traced.Result, defs map[types.Object]ast.Expr, j *traced.Jitted, call *ast.CallExpr, report func(analysis.Diagnostic)) {
	stack := r.PathTo(call)
	for k, arg := range call.Args {
		t := paramType(r, call, k)
		if t == nil {
			continue
		}
		if !j.IsStatic(k) {
			for _, sf := range staticFields(r, arg, t, stack) {
				msg := churn(r, defs, sf.value, stack, "static field "+sf.field+" of argument "+paramName(j, k))
				if msg == "" {
					continue
				}
				d := analysis.Diagnostic{Pos: sf.value.Pos(), End: sf.value.End(), Message: msg}
				if sf.value.Pos() < arg.Pos() || sf.value.End() > arg.End() {
					d.Pos, d.End = arg.Pos(), arg.End()
					d.Related = []analysis.RelatedInformation{{Pos: sf.value.Pos(), End: sf.value.End(), Message: "the static field " + sf.field + " is set here"}}
				}
				report(d)
			}
			continue
		}
		name := paramName(j, k)
		var msg string
		switch {
		case traced.ContainsArray(t):
			msg = fmt.Sprintf("an Array is passed as static argument %s: static arguments are Go values kept in the cache key; pass arrays as ordinary arguments", name)
		case !types.Comparable(t):
			msg = fmt.Sprintf("static argument %s has type %s, which is not comparable: the call panics with BadStaticArg. Use a comparable value (an array, a string, a struct of comparable fields)",
				name, types.TypeString(t, types.RelativeTo(nil)))
		default:
			msg = churn(r, defs, arg, stack, "static argument "+name)
		}
		if msg == "" {
			continue
		}
		d := analysis.Diagnostic{Pos: arg.Pos(), End: arg.End(), Message: msg}
		if j.StaticOpt != nil {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: j.StaticOpt.Pos(), End: j.StaticOpt.End(), Message: "the argument is made static here"})
		}
		report(d)
	}
}

// churn explains why a static value what (an argument or a static field)
// makes every call compile again, or returns "": it changes on every
// iteration of a loop (and does not merely cycle through a few values), or
// it comes from the clock or a random draw.
func churn(r *traced.Result, defs map[types.Object]ast.Expr, value ast.Expr, stack []ast.Node, what string) string {
	for _, loop := range traced.Loops(stack) {
		l := traced.NewLoop(r.Info, loop)
		if !l.Varies(value) {
			continue
		}
		tc := traced.Trips(r.Info, loop)
		if r.Repeats(l, value) {
			return "" // a few values that repeat: a few compiles, then cache hits
		}
		count := "each call traces and compiles again"
		if tc.Known {
			count += fmt.Sprintf(" (%d iterations → %d compiles)", tc.N, tc.N)
		}
		return fmt.Sprintf("%s takes a new value on every iteration: %s. Pass it as an array argument, or keep it fixed", what, count)
	}
	if src := clockOrRand(r, defs, value); src != "" && !fewByForm(r.Info, value) {
		return fmt.Sprintf("%s comes from %s and changes on every call: each call traces and compiles again. Pass it as an array argument", what, src)
	}
	return ""
}

// paramType returns the type of parameter k of the called function (the
// argument's own type may be untyped, as for nil).
func paramType(r *traced.Result, call *ast.CallExpr, k int) types.Type {
	sig, ok := r.Info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok || sig.Params().Len() == 0 {
		return r.Info.TypeOf(call.Args[k])
	}
	if k >= sig.Params().Len()-1 && sig.Variadic() {
		return sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice).Elem()
	}
	if k >= sig.Params().Len() {
		return nil
	}
	return sig.Params().At(k).Type()
}

// paramName names static argument k: its parameter name when known.
func paramName(j *traced.Jitted, k int) string {
	if name := j.ParamName(k); name != "" {
		return name
	}
	return fmt.Sprint(k)
}

// clockOrRand returns "time.Now" (etc.) when arg, or the value a variable
// in it was defined with, calls a function of time or math/rand.
func clockOrRand(r *traced.Result, defs map[types.Object]ast.Expr, arg ast.Expr) string {
	found := ""
	seen := map[types.Object]bool{}
	var visit func(e ast.Expr)
	visit = func(e ast.Expr) {
		ast.Inspect(e, func(n ast.Node) bool {
			if found != "" {
				return false
			}
			switch n := n.(type) {
			case *ast.CallExpr:
				if fn, ok := typeutil.Callee(r.Info, n).(*types.Func); ok && fn.Pkg() != nil {
					switch fn.Pkg().Path() {
					case "time": // time.Now, time.Since; not methods of a Time
						if fn.Signature().Recv() == nil {
							found = "time." + fn.Name()
						}
					case "math/rand", "math/rand/v2":
						found = "rand." + fn.Name()
					}
				}
			case *ast.Ident:
				if obj := r.Info.Uses[n]; obj != nil && !seen[obj] && defs[obj] != nil {
					seen[obj] = true
					visit(defs[obj])
				}
			}
			return true
		})
	}
	visit(arg)
	return found
}

// definitions maps the local variables defined with := or var to their
// initial value.
func definitions(r *traced.Result) map[types.Object]ast.Expr {
	defs := map[types.Object]ast.Expr{}
	for _, f := range r.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE && len(s.Lhs) == len(s.Rhs) {
					for i, l := range s.Lhs {
						if id, ok := l.(*ast.Ident); ok && r.Info.Defs[id] != nil {
							defs[r.Info.Defs[id]] = s.Rhs[i]
						}
					}
				}
			case *ast.ValueSpec:
				if len(s.Names) == len(s.Values) {
					for i, id := range s.Names {
						if obj := r.Info.Defs[id]; obj != nil {
							defs[obj] = s.Values[i]
						}
					}
				}
			}
			return true
		})
	}
	return defs
}

// fewByForm reports whether the value's form bounds it to a few values
// whatever it is computed from: a bool (time.Now().Second()%2 == 0 is two
// compiles at most).
func fewByForm(info *types.Info, e ast.Expr) bool {
	b, ok := info.TypeOf(e).Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}
