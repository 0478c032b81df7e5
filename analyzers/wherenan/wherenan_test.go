package wherenan_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/wherenan"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestWhereNaN(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), wherenan.Analyzer, "./wherenan/a")
}

func TestWhereNaNFixes(t *testing.T) {
	fixturetest.Fixes(t, wherenan.Analyzer, "./wherenan/a", 11)
}
