package main

import (
	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/lsp"
)

// analyzerSuite returns the jitlint analyzers enabled by settings.
func analyzerSuite(s lsp.Settings) []*analysis.Analyzer {
	return nil
}
