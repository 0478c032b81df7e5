package tracedbool_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/tracedbool"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestTracedBool runs the fixtures; ./tracedbool/helpers is analysed as a
// dependency of ./tracedbool/cross (its facts are the traced analyzer's,
// checked by traced's TestFacts).
func TestTracedBool(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), tracedbool.Analyzer, "./tracedbool/a", "./tracedbool/cross", "./tracedbool/transformed")
}

func TestTracedBoolFixes(t *testing.T) {
	fixturetest.Fixes(t, tracedbool.Analyzer, "./tracedbool/a", 2)
}
