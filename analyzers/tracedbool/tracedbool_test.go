package tracedbool_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/tracedbool"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestTracedBool(t *testing.T) {
	dir := fixturetest.Dir(t)
	analysistest.Run(t, dir, tracedbool.Analyzer, "tracedbool/a", "tracedbool/helpers", "tracedbool/cross")
}

func TestTracedBoolFixes(t *testing.T) {
	dir := fixturetest.Dir(t)
	results := analysistest.RunWithSuggestedFixes(t, dir, tracedbool.Analyzer, "tracedbool/a")
	fixturetest.CountFixes(t, results, 2)
	fixturetest.BuildGolden(t, dir, "tracedbool/a")
}
