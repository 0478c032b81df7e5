package unrolledloop_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/analyzers/unrolledloop"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestUnrolledLoop(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), unrolledloop.Analyzer, "./unrolledloop/a")
}

// TestMaxFlag checks that the limit is a per-analyzer setting: with a limit
// of 10, Heavy's 20 iterations are reported.
func TestMaxFlag(t *testing.T) {
	a := unrolledloop.New(traced.New(), 10)
	results := analysistest.Run(fakeT{t}, fixturetest.Dir(t), a, "./unrolledloop/a")
	found := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if r.Pass.Fset.Position(d.Pos).Line == 8 {
				found = true
			}
		}
	}
	if !found {
		t.Error("with max 10, the 20-iteration loop of Heavy (a.go:8) was not reported")
	}
	if got := unrolledloop.Analyzer.Flags.Lookup("max"); got == nil || got.DefValue != "32" {
		t.Errorf("-max flag of the default analyzer = %v, want default 32", got)
	}
}

// fakeT swallows the expectation mismatches that the lower limit causes.
type fakeT struct{ *testing.T }

func (fakeT) Errorf(string, ...any) {}
