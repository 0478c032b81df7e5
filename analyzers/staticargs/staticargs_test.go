package staticargs_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/staticargs"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestStaticArgs(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), staticargs.Analyzer, "staticargs/a")
}

func TestHoistFix(t *testing.T) {
	dir := fixturetest.Dir(t)
	results := analysistest.RunWithSuggestedFixes(t, dir, staticargs.Analyzer, "staticargs/hoist")
	fixturetest.CountFixes(t, results, 2)
	fixturetest.BuildGolden(t, dir, "staticargs/hoist")
}
