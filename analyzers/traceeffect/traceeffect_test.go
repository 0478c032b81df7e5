package traceeffect_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/traceeffect"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestTraceEffect(t *testing.T) {
	dir := fixturetest.Dir(t)
	analysistest.Run(t, dir, traceeffect.Analyzer, "traceeffect/a", "traceeffect/helpers", "traceeffect/cross")
}

func TestTraceEffectFixes(t *testing.T) {
	dir := fixturetest.Dir(t)
	for pkg, fixes := range map[string]int{"traceeffect/a": 2, "traceeffect/fixone": 1} {
		results := analysistest.RunWithSuggestedFixes(t, dir, traceeffect.Analyzer, pkg)
		fixturetest.CountFixes(t, results, fixes)
		fixturetest.BuildGolden(t, dir, pkg)
	}
}
