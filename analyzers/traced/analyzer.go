package traced

import (
	"fmt"
	"go/types"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/analysis"
)

// New returns a fresh analyzer whose result is the package's *Result (nil
// when the package does not import jit). The analyzers of one suite share
// one such value. It exports a FuncFact for the exported functions of the
// packages that import jit, and of those of local modules that may
// declare a schedule or a bucket chooser (NeedsFacts).
func New() *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "traced",
		Doc:        "analyse the value flow of a package for the jitlint analyzers: which code is traced, what values take",
		URL:        DocURL(""),
		ResultType: reflect.TypeOf((*Result)(nil)),
		FactTypes:  []analysis.Fact{new(FuncFact)},
		Run: guard(func(pass *analysis.Pass) (any, error) {
			importFact := func(fn *types.Func, f analysis.Fact) bool { return pass.ImportObjectFact(fn, f) }
			files := wellTyped(pass.Fset, pass.Files, pass.TypeErrors)
			r := build(pass.Fset, files, pass.Pkg, pass.TypesInfo, importFact)
			switch {
			case r != nil:
				r.flow.exportFacts(pass, r)
			case LocalModule(pass.Module) && mayChoose(pass.Files) && !inJitTree(pass.Pkg.Path()):
				newFlow(pass.Fset, files, pass.Pkg, pass.TypesInfo, importFact).exportFacts(pass, nil)
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
		Doc:      extractDoc(docGo, name),
		URL:      DocURL(name),
		Requires: []*analysis.Analyzer{tracer},
		Run: guard(func(pass *analysis.Pass) (any, error) {
			if r, _ := pass.ResultOf[tracer].(*Result); r != nil {
				run(pass, r)
			}
			return nil, nil
		}),
	}
}

// DocURL is the documentation address of the analyzer called name.
func DocURL(name string) string {
	const base = "https://github.com/jitlint/jitlint/blob/main/docs/analyzers.md"
	if name == "" {
		return base
	}
	return base + "#" + name
}

// guard turns a panic in run into an error naming the analyzer and the
// package, so that one bad package cannot bring down a long-running driver
// (the language server) that runs the analyzers in goroutines.
func guard(run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
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

// inJitTree reports whether path is the jit package or one below it, in
// a checkout of jitlint itself: the analyzers know jit's API as such, so
// no summary of its functions is ever read.
func inJitTree(path string) bool {
	return path == jitapi.JitPath || strings.HasPrefix(path, jitapi.JitPath+"/")
}
