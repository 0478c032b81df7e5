package traceeffect

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
}

// check reports the trace-time effects in fn.
func check(r *traced.Result, fn *traced.Func, report func(analysis.Diagnostic)) {
	r.Walk(fn, func(n ast.Node, stack []ast.Node) bool {
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
		path = callee.Pkg().Path()
		names := effectFuncs[path]
		if !names[callee.Name()] && !names["*"] {
			return
		}
		name = callee.Pkg().Name() + "." + callee.Name()
	default:
		return
	}
	d := analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Related: fn.Related()}
	switch path {
	case "time":
		d.Message = fmt.Sprintf("%s reads the clock once, at trace time: the compiled program keeps that value on every call. Pass the time as an argument", name)
	case "math/rand", "math/rand/v2":
		d.Message = fmt.Sprintf("%s draws once, at trace time: the compiled program reuses that number on every call. Pass random values (or a seed array) as arguments", name)
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

// checkWrite reports an assignment to a package variable or to a variable
// captured from outside the outermost traced function.
func checkWrite(r *traced.Result, fn *traced.Func, lhs ast.Expr, report func(analysis.Diagnostic)) {
	id := traced.RootIdent(lhs)
	if id == nil {
		return
	}
	v, ok := r.Info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil {
		return
	}
	var what string
	if v.Parent() == v.Pkg().Scope() {
		what = "package variable " + v.Name()
	} else {
		outer := r.Outermost(lhs.Pos())
		if outer == nil || (outer.Node.Pos() <= v.Pos() && v.Pos() < outer.Node.End()) {
			return
		}
		what = "captured variable " + v.Name()
	}
	report(analysis.Diagnostic{
		Pos: lhs.Pos(), End: lhs.End(), Related: fn.Related(),
		Message: fmt.Sprintf("assignment to %s runs once per trace, not on every call; return the value from the traced function instead", what),
	})
}
