package shapechurn_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/shapechurn"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestShapeChurn(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), shapechurn.Analyzer, "./shapechurn/a")
}
