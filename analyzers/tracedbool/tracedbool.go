package tracedbool

import (
	_ "embed"
	"fmt"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/internal/astq"
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
	return traced.NewAnalyzer("tracedbool", docGo, tracer, run)
}

// run reports the host conversions of traced values: in the package, and
// in the functions of other packages that traced code passes traced
// values to (from their facts).
func run(pass *analysis.Pass, r *traced.Result) {
	for _, cv := range r.Conversions() {
		d := analysis.Diagnostic{Pos: cv.Call.Pos(), End: cv.Call.End(), Related: cv.Related}
		if cv.Problem != nil {
			name := traced.CalleeName(cv.Callee)
			d.Message = fmt.Sprintf("%s receives a traced value here, and at %s: %s", name, cv.Problem.Pos, cv.Problem.Message)
			if cv.Callee.Pos().IsValid() {
				d.Related = []analysis.RelatedInformation{{Pos: cv.Callee.Pos(), Message: name + " is declared here"}}
			}
			pass.Report(d)
			continue
		}
		d.Message = traced.ConversionMessage(types.ExprString(cv.Call), cv.GoType)
		if cv.GoType == "bool" {
			stack := astq.PathTo(r.File(cv.Call.Pos()), cv.Call)
			if fix, ok := whereFix(r, cv.Call, cv.Recv, stack); ok {
				d.SuggestedFixes = append(d.SuggestedFixes, fix)
			}
		}
		pass.Report(d)
	}
}
