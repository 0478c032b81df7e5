package tracedbool

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

// Analyzer is the tracedbool analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh tracedbool analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewSummaryAnalyzer("tracedbool", docGo, tracer, check, func() traced.SummaryFact { return new(fact) })
}

// fact says which parameters of an exported function are converted to Go values.
type fact struct{ traced.Summary }

// AFact marks fact as an analysis fact.
func (*fact) AFact() {}

// check reports the host conversions of traced values in fn.
func check(r *traced.Result, fn *traced.Func, report func(analysis.Diagnostic)) {
	r.Walk(fn, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		recv, goType, ok := traced.HostConversion(r.Info, call)
		if !ok || !r.IsTraced(recv) {
			return true
		}
		d := analysis.Diagnostic{
			Pos:     call.Pos(),
			End:     call.End(),
			Message: message(types.ExprString(call), goType),
			Related: fn.Related(),
		}
		if goType == "bool" {
			if fix, ok := whereFix(r, call, recv, stack); ok {
				d.SuggestedFixes = append(d.SuggestedFixes, fix)
			}
		}
		report(d)
		return true
	})
}

// message explains one host conversion.
func message(expr, goType string) string {
	if goType == "bool" {
		return fmt.Sprintf("%s converts a traced value to a Go bool; tracing will fail with TracerBoolConversionError. "+
			"Use jit.Where for an elementwise choice or jit.Cond for a branch", expr)
	}
	return fmt.Sprintf("%s converts a traced value to a Go %s; tracing will fail with ConcretizationTypeError. "+
		"Keep the value an Array and compute with jit ops, or make the argument static with jit.StaticArgnums", expr, goType)
}
