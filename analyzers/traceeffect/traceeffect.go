package traceeffect

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docGo string

// Analyzer is the traceeffect analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh traceeffect analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewAnalyzer("traceeffect", docGo, tracer, run)
}

// run reports the effects that run while tracing.
func run(pass *analysis.Pass, r *traced.Result) {
	for _, e := range r.Effects() {
		d := analysis.Diagnostic{Pos: e.Pos, End: e.End, Related: e.Related}
		switch {
		case e.Problem != nil && e.Problem.Detail != "" && e.Call != nil:
			recv := receiver(e.Call)
			d.Message = fmt.Sprintf("%s writes %s.%s, and the receiver is the %s, which outlives the trace: the write runs once per trace, not on every call; return the new state from the traced function instead",
				types.ExprString(e.Call.Fun), recv, e.Problem.Detail, e.Target)
		case e.Problem != nil:
			name := traced.CalleeName(e.Callee)
			d.Message = fmt.Sprintf("%s receives a traced value here, and at %s: %s", name, e.Problem.Pos, e.Problem.Message)
			if e.Callee.Pos().IsValid() {
				d.Related = []analysis.RelatedInformation{{Pos: e.Callee.Pos(), Message: name + " is declared here"}}
			}
		default:
			d.Message = traced.EffectMessage(e)
			if e.Name == "fmt.Printf" && e.Call != nil {
				if fix, ok := debugPrintFix(r, e.Call); ok {
					d.SuggestedFixes = []analysis.SuggestedFix{fix}
				}
			}
		}
		pass.Report(d)
	}
}

// receiver is the value a method call is made on.
func receiver(call *ast.CallExpr) string {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return types.ExprString(sel.X)
	}
	return types.ExprString(call.Fun)
}
