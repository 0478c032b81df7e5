package suppress_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jitlint/jitlint/analyzers"
	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// byName returns the analyzer called name of a fresh suite.
func byName(t *testing.T, name string) *analysis.Analyzer {
	for _, a := range analyzers.All() {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no analyzer %s in the suite", name)
	return nil
}

// TestSuppressed checks that directives drop exactly the findings they name
// on the lines (or files) they cover.
func TestSuppressed(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), byName(t, "tracedbool"), "./suppress/a")
}

// TestNothingLeft checks that, on the fixture whose directives suppress
// findings, traceeffect reports nothing and the directive analyzer reports
// only the two directives that are there to show what does not match.
func TestNothingLeft(t *testing.T) {
	want := map[string][]string{
		"traceeffect": nil,
		"directive": {
			"a.go:34: //jitlint:ignore tracedbool suppresses nothing: tracedbool reports no finding on line 35; remove it from the directive",
			"a.go:46: //jitlint:ignore traceeffect suppresses nothing: traceeffect reports no finding on line 46; remove it from the directive",
		},
	}
	for name, want := range want {
		var got []string
		for _, r := range analysistest.Run(discard{}, fixturetest.Dir(t), byName(t, name), "./suppress/a") {
			if r.Err != nil {
				t.Fatalf("%s: %v", name, r.Err)
			}
			for _, d := range r.Diagnostics {
				p := r.Pass.Fset.Position(d.Pos)
				got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, d.Message))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s on suppress/a:\n got  %q\n want %q", name, got, want)
		}
	}
}

// TestBadDirectives checks the directive analyzer's reports.
func TestBadDirectives(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), byName(t, "directive"), "./suppress/bad")
}

// discard is an analysistest.Testing that ignores the want comments (of
// another analyzer) so that a test can look at the diagnostics itself.
type discard struct{}

func (discard) Errorf(string, ...any) {}
