package traced

import (
	"fmt"
	"go/types"
	"reflect"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// New returns a fresh analyzer whose result is the package's *Result (nil
// when the package does not import jit). The analyzers of one suite share
// one such value. It exports a StagesFact for each function that stages
// operations, so that loops calling helpers of other packages are seen to
// stage them.
func New() *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "traced",
		Doc:        "find the traced functions and values of a package for the jitlint analyzers",
		URL:        DocURL(""),
		ResultType: reflect.TypeOf((*Result)(nil)),
		FactTypes:  []analysis.Fact{new(StagesFact), new(FewFact), new(StateFact)},
		Run: Guard(func(pass *analysis.Pass) (any, error) {
			exportFew(pass)
			importFact := func(fn *types.Func, f analysis.Fact) bool { return pass.ImportObjectFact(fn, f) }
			r := build(pass.Fset, pass.Files, pass.Pkg, pass.TypesInfo, importFact)
			if r != nil {
				exportStages(pass, r)
				exportState(pass, r)
			}
			return r, nil
		}),
	}
}

// NewAnalyzer returns the jitlint analyzer called name, documented by the
// "# Analyzer name" section of docGo (its package's doc.go source). It
// requires tracer (made by New) and calls run with the package's Result on
// the packages that import jit; a panic in run becomes an error (see Guard).
func NewAnalyzer(name, docGo string, tracer *analysis.Analyzer, run func(*analysis.Pass, *Result)) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      ExtractDoc(docGo, name),
		URL:      DocURL(name),
		Requires: []*analysis.Analyzer{tracer},
		Run: Guard(func(pass *analysis.Pass) (any, error) {
			if r, _ := pass.ResultOf[tracer].(*Result); r != nil {
				run(pass, r)
			}
			return nil, nil
		}),
	}
}

// NewSummaryAnalyzer is NewAnalyzer for an analyzer that runs check on
// every traced function of a package and on the exported functions that
// take arrays, whose findings it exports as facts (made by newFact) and
// reports at the calls from other packages that pass them traced values.
func NewSummaryAnalyzer(name, docGo string, tracer *analysis.Analyzer, check CheckFunc, newFact func() SummaryFact) *analysis.Analyzer {
	a := NewAnalyzer(name, docGo, tracer, func(pass *analysis.Pass, r *Result) {
		checkPackage(pass, r, check, newFact)
	})
	a.FactTypes = []analysis.Fact{newFact()}
	return a
}

// DocURL is the documentation address of the analyzer called name.
func DocURL(name string) string {
	const base = "https://github.com/jitlint/jitlint/blob/main/docs/analyzers.md"
	if name == "" {
		return base
	}
	return base + "#" + name
}

// Guard turns a panic in run into an error naming the analyzer and the
// package, so that one bad package cannot bring down a long-running driver
// (the language server) that runs the analyzers in goroutines.
func Guard(run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (res any, err error) {
		defer func() {
			if p := recover(); p != nil {
				res = nil
				err = fmt.Errorf("jitlint: internal error in analyzer %s on package %s: %v (please report it with this stack)\n%s",
					pass.Analyzer.Name, pass.Pkg.Path(), p, debug.Stack())
			}
		}()
		return run(pass)
	}
}
