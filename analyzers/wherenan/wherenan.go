package wherenan

import (
	_ "embed"
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers/internal/astq"
	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/jitapi"
)

//go:embed doc.go
var docGo string

// Analyzer is the wherenan analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh wherenan analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewAnalyzer("wherenan", docGo, tracer, run)
}

func run(pass *analysis.Pass, r *traced.Result) {
	for _, w := range r.NaNWheres() {
		pass.Report(diagnostic(r, w))
	}
}

// diagnostic explains one NaN gradient and, when the singular operation is
// written inside the Where, suggests the double where.
func diagnostic(r *traced.Result, w traced.NaNWhere) analysis.Diagnostic {
	pred := types.ExprString(w.Call.Args[0])
	op, operand := "the singular operation", ""
	if w.Op != nil {
		op = types.ExprString(w.Op)
	}
	if w.Operand != nil {
		operand = types.ExprString(w.Operand)
	}
	jit := astq.JitImportName(r.File(w.Call.Pos()), jitapi.JitPath)
	if jit == "" {
		jit = "jit"
	}
	safe := fmt.Sprintf("%s.Where(%s, %s, 1)", jit, pred, operand)
	where := "false"
	if w.Branch == 2 {
		safe = fmt.Sprintf("%s.Where(%s, 1, %s)", jit, pred, operand)
		where = "true"
	}
	via := ""
	if w.Through {
		via = fmt.Sprintf(" (through %s)", w.Func)
	}
	advice := "substituting a safe value inside the branch too"
	if operand != "" {
		advice += ": " + safe
	}
	d := analysis.Diagnostic{
		Pos: w.Call.Pos(), End: w.Call.End(),
		Message: fmt.Sprintf("%s is differentiated by jit.%s%s, and where %s is %s the gradient of the unchosen branch %s is still "+
			"computed at the excluded values, where %s: the zero it is multiplied by gives NaN (0 × ∞), as in JAX. "+
			"Use the double where, %s", types.ExprString(w.Call), w.API, via, pred, where, op, w.Why, advice),
	}
	if w.Grad != nil {
		d.Related = []analysis.RelatedInformation{{Pos: w.Grad.Pos(), End: w.Grad.End(),
			Message: fmt.Sprintf("%s is differentiated by this jit.%s call", w.Func, w.API)}}
	}
	if br := w.Call.Args[w.Branch]; w.Operand != nil && w.Op.Pos() >= br.Pos() && w.Op.End() <= br.End() {
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   "Use the double where: " + safe,
			TextEdits: []analysis.TextEdit{{Pos: w.Operand.Pos(), End: w.Operand.End(), NewText: []byte(safe)}},
		}}
	}
	return d
}
