package staticargs_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/staticargs"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestStaticArgs(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), staticargs.Analyzer, "./staticargs/a")
}

func TestHoistFix(t *testing.T) {
	fixturetest.Fixes(t, staticargs.Analyzer, "./staticargs/hoist", 2)
}
