package shapechurn

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/jitapi"
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
		for _, call := range r.JittedCalls() {
			checkCall(r, call, pass.Report)
		}
	})
}

// checkCall reports the array arguments of a jitted call whose shape takes
// a new value on every run of the call, beyond a few that repeat.
func checkCall(r *traced.Result, j *traced.JittedCall, report func(analysis.Diagnostic)) {
	for k, arg := range j.Call.Args {
		if t := j.ParamType(k); t == nil || !jitapi.ContainsArray(t) || j.IsStatic(k) {
			continue
		}
		c := j.ShapeChurn(k)
		if c == nil {
			continue
		}
		d := analysis.Diagnostic{
			Pos: arg.Pos(), End: arg.End(),
			Message: fmt.Sprintf("argument %s has a different shape on each iteration: one compile per distinct shape (%s). "+
				"Pad to a fixed size with jit.PadTo and pass a mask", argName(j, k, arg), count(c)),
		}
		if c.Handler != "" {
			d.Message = fmt.Sprintf("argument %s has a shape that each request to %s sets: one compile per distinct shape, as many as the requests' sizes. "+
				"Pad to a few bucket sizes with jit.PadTo and pass a mask", argName(j, k, arg), c.Handler)
		}
		if j.JitCall != nil {
			d.Related = []analysis.RelatedInformation{{Pos: j.JitCall.Pos(), End: j.JitCall.End(), Message: "the function is jitted here"}}
		}
		report(d)
	}
}

// count says how many compiles the loop makes: as many as it has
// iterations or distinct shapes when those are known, else what the
// number grows with.
func count(c *traced.Churn) string {
	switch {
	case c.Known && c.DistinctKnown && c.Distinct < c.Trips:
		return fmt.Sprintf("%d shapes over %d iterations → %d compiles", c.Distinct, c.Trips, c.Distinct)
	case c.Known && c.DistinctKnown:
		return fmt.Sprintf("%d iterations → %d compiles", c.Trips, c.Trips)
	case c.Known:
		return fmt.Sprintf("up to %d compiles, one per iteration", c.Trips)
	case c.DistinctKnown:
		return fmt.Sprintf("%d shapes → %d compiles", c.Distinct, c.Distinct)
	}
	if rs, ok := c.Loop.(*ast.RangeStmt); ok {
		return "the number of compiles grows with the distinct lengths in " + types.ExprString(rs.X)
	}
	return "the number of compiles grows with the data"
}

// argName names argument k: the parameter's name when known, else the expression.
func argName(j *traced.JittedCall, k int, arg ast.Expr) string {
	if name := j.ParamName(k); name != "" {
		return name
	}
	return types.ExprString(arg)
}
