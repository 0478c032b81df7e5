package batchedcond_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/batchedcond"
	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestBatchedCond(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), batchedcond.Analyzer, "./batchedcond/a")
}
