package unrolledloop

import (
	_ "embed"
	"fmt"

	"github.com/jitlint/jitlint/analyzers/internal/astq"
	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docGo string

// DefaultMax is the largest trip count that is not reported.
const DefaultMax = 32

// Analyzer is the unrolledloop analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New(), DefaultMax)

// New returns a fresh unrolledloop analyzer that uses tracer (made by
// traced.New) and reports trip counts above max (its -max flag).
func New(tracer *analysis.Analyzer, max int) *analysis.Analyzer {
	limit := new(int)
	a := traced.NewAnalyzer("unrolledloop", docGo, tracer, func(pass *analysis.Pass, r *traced.Result) {
		for _, l := range r.Loops() {
			if d, ok := explain(r, l, int64(*limit)); ok {
				pass.Report(d)
			}
		}
	})
	a.Flags.IntVar(limit, "max", max, "largest trip count of a Go loop in traced code that is not reported")
	return a
}

const advice = "trace and compile time grow with the count. Use jit.ScanN or jit.ForiLoop"

// explain makes the diagnostic of a loop whose count is above max or not
// bounded, saying where the count comes from.
func explain(r *traced.Result, l traced.LoopCount, max int64) (analysis.Diagnostic, bool) {
	d := analysis.Diagnostic{Related: l.Related}
	if l.Stmt != nil {
		d.Pos, d.End = l.Stmt.Pos(), astq.LoopBody(l.Stmt).Lbrace
	} else {
		d.Pos, d.End = l.Call.Pos(), l.Call.End()
	}
	where := func() string { return r.Where(l.Site) }
	if l.Known {
		if l.N <= max {
			return d, false
		}
		eq := equations(l.N, l.Ops)
		switch l.Source {
		case "constant":
			d.Message = fmt.Sprintf("loop is unrolled into the trace %d times → %s; %s", l.N, eq, advice)
		case "slice":
			d.Message = fmt.Sprintf("loop is unrolled into the trace %d times (once per element of %s, which has %d) → %s; %s", l.N, l.Name, l.Length, eq, advice)
		case "slice-call":
			d.Message = fmt.Sprintf("loop is unrolled into the trace %d times (once per element of %s; the call at %s passes %d) → %s; %s", l.N, l.Name, where(), l.Length, eq, advice)
		case "static":
			d.Message = fmt.Sprintf("loop is unrolled into the trace up to %d times (static argument %s is %d at %s) → %s; %s", l.N, l.Name, l.N, where(), eq, advice)
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: l.Site, End: l.Site, Message: fmt.Sprintf("the static argument %s is %d here", l.Name, l.N)})
		case "argument":
			d.Message = fmt.Sprintf("loop is unrolled into the trace up to %d times (%s is %d at %s) → %s; %s", l.N, l.Name, l.N, where(), eq, advice)
		case "external":
			d.Message = fmt.Sprintf("%s is called here from traced code, and its loop at %s is unrolled into the trace %d times for these arguments → %s; %s",
				traced.CalleeName(l.Callee), l.Problem.Pos, l.N, eq, advice)
		default:
			d.Message = fmt.Sprintf("loop is unrolled into the trace up to %d times (%s is %d) → %s; %s", l.N, l.Bound, l.Length, eq, advice)
		}
		return d, true
	}
	ops := l.Ops
	if ops < 1 {
		ops = 1
	}
	switch l.Source {
	case "nonstatic":
		d.Message = fmt.Sprintf("loop is unrolled into the trace %s times, and %s is an argument of the jitted function that is not static: the unrolled length is unbounded; %s", l.Name, l.Name, advice)
	case "static-unknown":
		d.Message = fmt.Sprintf("loop is unrolled into the trace %s times, and the static argument %s is set to %s at %s, not a known constant: the unrolled length is unbounded; %s", l.Name, l.Name, l.Passed, where(), advice)
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: l.Site, End: l.Site, Message: "the static argument " + l.Name + " is set here"})
	case "shape":
		d.Message = fmt.Sprintf("loop is unrolled into the trace once per element of a shape (%s), about %d equations each: the unrolled length grows with the input, with a new program for each shape; %s", l.Bound, ops, advice)
	case "shape-slice":
		d.Message = fmt.Sprintf("loop is unrolled into the trace once per element of %s, whose length is a size of an array (%s), about %d equations each: the unrolled length grows with the input, with a new program for each shape; %s", l.Name, l.Bound, ops, advice)
	case "data":
		d.Message = fmt.Sprintf("loop is unrolled into the trace once per element of %s, and the call at %s passes a slice built by ranging over %s: the unrolled length grows with the data (about %d equations per element); %s", l.Name, where(), l.Passed, ops, advice)
	default:
		return d, false
	}
	return d, true
}

// equations says how big the unrolled loop makes the program.
func equations(n int64, ops int) string {
	if ops <= 0 {
		return "a program that grows with the count"
	}
	return fmt.Sprintf("about %d equations", n*int64(ops))
}
