package tracedbool_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/tracedbool"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestTracedBool(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), tracedbool.Analyzer, "./tracedbool/a", "./tracedbool/helpers", "./tracedbool/cross")
}

func TestTracedBoolFixes(t *testing.T) {
	fixturetest.Fixes(t, tracedbool.Analyzer, "./tracedbool/a", 2)
}
