package traceeffect

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

//go:embed doc.go
var docGo string

// Analyzer is the traceeffect analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh traceeffect analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewSummaryAnalyzer("traceeffect", docGo, tracer, check, func() traced.SummaryFact { return new(fact) })
}

// fact says which parameters of an exported function reach a trace-time effect.
type fact struct{ traced.Summary }

// AFact marks fact as an analysis fact.
func (*fact) AFact() {}

// effectFuncs are the functions and methods (by package path, then name;
// "*" for all) whose calls are host side effects.
var effectFuncs = map[string]map[string]bool{
	"fmt": {"Print": true, "Printf": true, "Println": true, "Fprint": true, "Fprintf": true, "Fprintln": true},
	"log": {"Print": true, "Printf": true, "Println": true, "Fatal": true, "Fatalf": true, "Fatalln": true,
		"Panic": true, "Panicf": true, "Panicln": true},
	"log/slog": {"Debug": true, "Info": true, "Warn": true, "Error": true, "Log": true, "LogAttrs": true,
		"DebugContext": true, "InfoContext": true, "WarnContext": true, "ErrorContext": true},
	"time":         {"Now": true, "Since": true, "Until": true},
	"math/rand":    {"*": true},
	"math/rand/v2": {"*": true},
	"sync/atomic":  {"*": true},
}

// notEffects are the functions and methods of effectFuncs' packages that
// are not effects: making a generator is not a draw, and loading an atomic
// value changes nothing.
var notEffects = map[string]map[string]bool{
	"math/rand":    {"New": true, "NewSource": true, "NewZipf": true},
	"math/rand/v2": {"New": true, "NewPCG": true, "NewChaCha8": true, "NewZipf": true},
	"sync/atomic":  {"Load": true, "LoadInt32": true, "LoadInt64": true, "LoadUint32": true, "LoadUint64": true, "LoadUintptr": true, "LoadPointer": true},
}

// check reports the trace-time effects in fn.
func check(r *traced.Result, fn *traced.Func, report func(analysis.Diagnostic)) {
	if neverReached(r, fn) {
		return
	}
	r.Walk(fn, func(n ast.Node, stack []ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && onceFiredEagerly(r, lit, stack) {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			checkCall(r, fn, n, report)
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, lhs := range n.Lhs {
					checkWrite(r, fn, lhs, report)
				}
			}
		case *ast.IncDecStmt:
			checkWrite(r, fn, n.X, report)
		}
		return true
	})
}

// checkCall reports a call of an effectful function.
func checkCall(r *traced.Result, fn *traced.Func, call *ast.CallExpr, report func(analysis.Diagnostic)) {
	var name, path string
	switch callee := typeutil.Callee(r.Info, call).(type) {
	case *types.Builtin:
		if callee.Name() != "print" && callee.Name() != "println" {
			return
		}
		name = callee.Name()
	case *types.Func:
		if callee.Pkg() == nil {
			return
		}
		if field, ok := r.ReceiverWrite(callee); ok {
			checkStateCall(r, fn, call, callee, field, report)
			return
		}
		path = callee.Pkg().Path()
		names := effectFuncs[path]
		if (!names[callee.Name()] && !names["*"]) || notEffects[path][callee.Name()] {
			return
		}
		name = callee.Pkg().Name() + "." + callee.Name()
		if path != "sync/atomic" && path != "math/rand" && path != "math/rand/v2" {
			break
		}
		if callee.Signature().Recv() != nil {
			name = types.ExprString(call.Fun) // rng.Float64, calls.Add
		}
		if path == "sync/atomic" && !sharedAtomic(r, fn, call, callee) {
			return
		}
		if path != "sync/atomic" && seededHere(r, fn, call) {
			return
		}
	default:
		return
	}
	d := analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Related: fn.Related()}
	switch path {
	case "time":
		d.Message = fmt.Sprintf("%s reads the clock once, at trace time: the compiled program keeps that value on every call. Pass the time as an argument", name)
	case "math/rand", "math/rand/v2":
		d.Message = fmt.Sprintf("%s draws once, at trace time: the compiled program reuses that number on every call. Pass random values (or a seed array) as arguments", name)
	case "sync/atomic":
		d.Message = fmt.Sprintf("%s updates shared state once per trace, not on every call; count calls outside the traced function (or read Stats)", name)
	default:
		d.Message = fmt.Sprintf("%s runs once per trace, not on every call; use jit.DebugPrint to print at run time", name)
	}
	if name == "fmt.Printf" {
		if fix, ok := debugPrintFix(r, call); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	}
	report(d)
}

// checkWrite reports an assignment to a package variable, to a variable
// captured from outside the outermost traced function, or to the state of
// a receiver that outlives the trace.
func checkWrite(r *traced.Result, fn *traced.Func, lhs ast.Expr, report func(analysis.Diagnostic)) {
	what := outliving(r, fn, lhs)
	if what == "" {
		return
	}
	report(analysis.Diagnostic{
		Pos: lhs.Pos(), End: lhs.End(), Related: fn.Related(),
		Message: fmt.Sprintf("assignment to %s runs once per trace, not on every call; return the value from the traced function instead", what),
	})
}

// outliving describes the memory that writing e changes when it outlives
// the trace (a package variable, a captured variable, the state of a
// receiver that outlives the trace), or returns "".
func outliving(r *traced.Result, fn *traced.Func, e ast.Expr) string {
	id := traced.RootIdent(e)
	if id == nil {
		return ""
	}
	v, ok := r.Info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil {
		return ""
	}
	switch {
	case v.Parent() == v.Pkg().Scope():
		return "package variable " + v.Name()
	case fn.RecvOutlives && v == fn.Recv:
		if e == ast.Expr(id) || !writesThrough(r.Info, e) {
			return "" // the receiver is a copy: the write does not last
		}
		return types.ExprString(e) + " (state of the receiver, which outlives the trace)"
	}
	outer := r.Outermost(e.Pos())
	if outer == nil || (outer.Node.Pos() <= v.Pos() && v.Pos() < outer.Node.End()) {
		return ""
	}
	return "captured variable " + v.Name()
}

// sharedAtomic reports whether an atomic update changes memory that
// outlives the trace (not a counter local to the traced function).
func sharedAtomic(r *traced.Result, fn *traced.Func, call *ast.CallExpr, callee *types.Func) bool {
	var target ast.Expr
	if callee.Signature().Recv() != nil {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			target = sel.X
		}
	} else if len(call.Args) > 0 {
		target = call.Args[0]
		if u, ok := ast.Unparen(target).(*ast.UnaryExpr); ok && u.Op == token.AND {
			target = u.X
		}
	}
	id := traced.RootIdent(target)
	if id == nil {
		return true // memory we cannot see: assume it is shared
	}
	if v, ok := r.Info.Uses[id].(*types.Var); ok && fn.RecvOutlives && v == fn.Recv {
		return true
	}
	return outliving(r, fn, id) != ""
}

// writesThrough reports whether an assignment to lhs changes memory that
// its root variable points to (a field through a pointer, an element of a
// slice or map), rather than the variable itself.
func writesThrough(info *types.Info, lhs ast.Expr) bool {
	for {
		switch x := ast.Unparen(lhs).(type) {
		case *ast.StarExpr:
			return true
		case *ast.SelectorExpr:
			if _, ok := info.TypeOf(x.X).Underlying().(*types.Pointer); ok {
				return true
			}
			lhs = x.X
		case *ast.IndexExpr:
			switch info.TypeOf(x.X).Underlying().(type) {
			case *types.Slice, *types.Map, *types.Pointer:
				return true
			}
			lhs = x.X
		default:
			return false
		}
	}
}

// seededHere reports whether call draws from a generator that traced code
// makes itself from constant seeds or static arguments
// (rng := rand.New(rand.NewSource(7)) in the traced function, or in every
// traced caller that passes rng to this helper): it yields the same numbers
// on every call with the same static arguments, traced or not, so freezing
// them into the program changes nothing.
func seededHere(r *traced.Result, fn *traced.Func, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	return deterministicGenerator(r, fn, sel.X, map[*traced.Func]bool{})
}

// deterministicGenerator reports whether e, an expression of fn, holds a
// generator made in traced code from constants and static arguments.
func deterministicGenerator(r *traced.Result, fn *traced.Func, e ast.Expr, seen map[*traced.Func]bool) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || seen[fn] {
		return false
	}
	v, ok := r.Info.Uses[id].(*types.Var)
	if !ok || v.Pos() < fn.Node.Pos() || v.Pos() >= fn.Node.End() {
		return false
	}
	if i := slices.Index(fn.Params, v); i >= 0 {
		if len(fn.Jitted) > 0 || fn.Entry != "" || len(fn.CalledFrom) == 0 {
			return false // its callers are not all in traced code
		}
		seen[fn] = true
		defer delete(seen, fn)
		for _, cs := range fn.CalledFrom {
			if i >= len(cs.Call.Args) || !deterministicGenerator(r, cs.In, cs.Call.Args[i], seen) {
				return false
			}
		}
		return true
	}
	values := traced.Assigned(r.Info, fn.Node, v)
	for _, val := range values {
		if !constantGenerator(r, fn, val) {
			return false
		}
	}
	return len(values) > 0
}

// constantGenerator reports whether e makes a math/rand generator from
// constants and static arguments of fn only: rand.New(rand.NewSource(7)),
// rand.New(rand.NewPCG(seed, 2)) with seed static.
func constantGenerator(r *traced.Result, fn *traced.Func, e ast.Expr) bool {
	if r.Info.Types[e].Value != nil {
		return true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := r.Info.Uses[e].(*types.Var)
		_, static := fn.Static[v]
		return ok && static
	case *ast.CallExpr:
		if r.Info.Types[e.Fun].IsType() && len(e.Args) == 1 {
			return constantGenerator(r, fn, e.Args[0]) // int64(seed)
		}
		callee, ok := typeutil.Callee(r.Info, e).(*types.Func)
		if !ok || callee.Pkg() == nil || !notEffects[callee.Pkg().Path()][callee.Name()] || callee.Signature().Recv() != nil {
			return false
		}
		for _, a := range e.Args {
			if !constantGenerator(r, fn, a) {
				return false
			}
		}
		return true
	}
	return false
}

// checkStateCall reports a call of a method of another package that writes
// its receiver's field when the receiver outlives the trace.
func checkStateCall(r *traced.Result, fn *traced.Func, call *ast.CallExpr, callee *types.Func, field string, report func(analysis.Diagnostic)) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	what := outliving(r, fn, sel.X)
	if what == "" {
		return
	}
	report(analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(), Related: fn.Related(),
		Message: fmt.Sprintf("%s writes %s.%s, and the receiver is the %s, which outlives the trace: the write runs once per trace, not on every call; return the new state from the traced function instead",
			types.ExprString(call.Fun), types.ExprString(sel.X), field, what),
	})
}

// neverReached reports whether traced code can only call fn with an
// argument that converts a traced value to the host (stopper.improved(
// l.Item())): the trace fails at that conversion (tracedbool's finding)
// before fn runs, so fn's effects never happen while tracing.
func neverReached(r *traced.Result, fn *traced.Func) bool {
	if fn.Entry != "" || len(fn.Jitted) > 0 || len(fn.CalledFrom) == 0 {
		return false
	}
	for _, cs := range fn.CalledFrom {
		converts := false
		for _, a := range cs.Call.Args {
			ast.Inspect(a, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if recv, _, ok := traced.HostConversion(r.Info, call); ok && r.IsTraced(recv) {
						converts = true
					}
				}
				return !converts
			})
		}
		if !converts {
			return false
		}
	}
	return true
}
