package main

import (
	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers"
	"github.com/jitlint/jitlint/lsp"
)

// analyzerSuite returns the jitlint analyzers enabled by settings (the same
// ones cmd/jitlint runs). In the editor a package is ill-typed most of the
// time while the user types, so they run despite type errors: what they
// cannot type they do not report (the server recovers their panics).
func analyzerSuite(s lsp.Settings) []*analysis.Analyzer {
	suite := analyzers.Suite(analyzers.Config{Enabled: s.Analyzers, UnrolledLoopMax: s.UnrolledLoopMax})
	seen := map[*analysis.Analyzer]bool{}
	var mark func(a *analysis.Analyzer)
	mark = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		a.RunDespiteErrors = true
		for _, r := range a.Requires {
			mark(r)
		}
	}
	for _, a := range suite {
		mark(a)
	}
	return suite
}
