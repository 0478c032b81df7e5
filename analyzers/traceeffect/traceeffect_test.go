package traceeffect_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/traceeffect"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestTraceEffect runs the fixtures; ./traceeffect/helpers and
// ./traceeffect/optlib are analysed as dependencies (their facts are the
// traced analyzer's, checked by traced's TestFacts).
func TestTraceEffect(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), traceeffect.Analyzer, "./traceeffect/a", "./traceeffect/cross", "./traceeffect/oncemain")
}

func TestTraceEffectFixes(t *testing.T) {
	for pkg, fixes := range map[string]int{"./traceeffect/a": 2, "./traceeffect/fixone": 1} {
		fixturetest.Fixes(t, traceeffect.Analyzer, pkg, fixes)
	}
}
