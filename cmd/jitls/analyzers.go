package main

import (
	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers"
	"github.com/jitlint/jitlint/lsp"
)

// analyzerSuite returns the jitlint analyzers enabled by settings (the same
// ones cmd/jitlint runs).
func analyzerSuite(s lsp.Settings) []*analysis.Analyzer {
	return analyzers.Suite(analyzers.Config{Enabled: s.Analyzers, UnrolledLoopMax: s.UnrolledLoopMax})
}
