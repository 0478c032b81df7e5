package analyzers_test

import (
	"slices"
	"testing"

	"github.com/jitlint/jitlint/analyzers"
	"golang.org/x/tools/go/analysis"
)

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func TestSuite(t *testing.T) {
	all := analyzers.All()
	if got := names(all); !slices.Equal(got, analyzers.Names) {
		t.Fatalf("All() = %v, want %v", got, analyzers.Names)
	}
	if err := analysis.Validate(all); err != nil {
		t.Fatalf("Validate(All()): %v", err)
	}
	checks, directive := all[:len(all)-1], all[len(all)-1]
	for _, a := range all {
		if a.URL != "https://github.com/jitlint/jitlint/blob/main/docs/analyzers.md#"+a.Name || a.Doc == "" {
			t.Errorf("%s: URL = %q, want one; Doc = %q, want one", a.Name, a.URL, a.Doc)
		}
	}
	// The checks share the traced prerequisite and the directive parser;
	// the directive analyzer needs what each check suppressed.
	for _, a := range checks {
		if len(a.Requires) != 2 || a.Requires[0] != all[0].Requires[0] || a.Requires[1] != all[0].Requires[1] {
			t.Errorf("%s: want the suite's shared traced and directive-parsing prerequisites", a.Name)
		}
		if !slices.Contains(directive.Requires, a) {
			t.Errorf("directive does not require %s", a.Name)
		}
	}
	off := analyzers.Suite(analyzers.Config{Enabled: map[string]bool{"staticargs": false, "tracedbool": true}})
	if got := names(off); slices.Contains(got, "staticargs") || len(got) != 5 {
		t.Errorf("Suite with staticargs off = %v", got)
	}
	off = analyzers.Suite(analyzers.Config{Enabled: map[string]bool{"directive": false}})
	if got := names(off); !slices.Equal(got, analyzers.Names[:5]) {
		t.Errorf("Suite with directive off = %v", got)
	}
}

// TestSuiteFresh checks that two suites share no analyzer value, so that
// flags set on one (the -max of unrolledloop) do not leak into the other.
func TestSuiteFresh(t *testing.T) {
	a := analyzers.Suite(analyzers.Config{UnrolledLoopMax: 7})
	b := analyzers.All()
	for i := range a {
		if a[i] == b[i] || a[i].Requires[0] == b[i].Requires[0] {
			t.Errorf("%s: suites share analyzer values", a[i].Name)
		}
	}
	if got := a[1].Flags.Lookup("max").Value.String(); got != "7" {
		t.Errorf("unrolledloop max with UnrolledLoopMax 7 = %s", got)
	}
	if got := b[1].Flags.Lookup("max").Value.String(); got != "32" {
		t.Errorf("unrolledloop max by default = %s", got)
	}
}
