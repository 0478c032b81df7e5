package batchedcond

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docGo string

// Analyzer is the batchedcond analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh batchedcond analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewAnalyzer("batchedcond", docGo, tracer, run)
}

func run(pass *analysis.Pass, r *traced.Result) {
	for _, b := range r.Batched() {
		d := analysis.Diagnostic{Pos: b.Call.Pos(), End: b.Call.End(), Message: message(b.Name, b.On)}
		if b.Vmap != nil {
			d.Related = []analysis.RelatedInformation{{Pos: b.Vmap.Pos(), End: b.Vmap.End(),
				Message: fmt.Sprintf("%s is mapped by this jit.Vmap call", b.Mapped)}}
		}
		pass.Report(d)
	}
}

// message explains the cost of one batched branch or loop.
func message(name string, on []string) string {
	args := strings.Join(on, ", ")
	if name == "WhileLoop" {
		return fmt.Sprintf("jit.WhileLoop's carry depends on %s, which jit.Vmap maps: with a batched condition the loop runs until every "+
			"element is done (as long as its slowest element), freezing the finished ones with select_n", args)
	}
	what := "predicate"
	if name == "Switch" {
		what = "index"
	}
	return fmt.Sprintf("jit.%s's %s depends on %s, which jit.Vmap maps: under Vmap it becomes a select_n and every branch runs for "+
		"every element, so it costs the sum of the branches, not one of them; if the branches are cheap, jit.Where says so honestly, "+
		"otherwise keep the %s independent of the mapped arguments (jit.NotMapped)", name, what, args, what)
}
