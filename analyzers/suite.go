package analyzers

import (
	"github.com/jitlint/jitlint/analyzers/shapechurn"
	"github.com/jitlint/jitlint/analyzers/staticargs"
	"github.com/jitlint/jitlint/analyzers/suppress"
	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/analyzers/tracedbool"
	"github.com/jitlint/jitlint/analyzers/traceeffect"
	"github.com/jitlint/jitlint/analyzers/unrolledloop"
	"golang.org/x/tools/go/analysis"
)

// Config selects and tunes analyzers.
type Config struct {
	Enabled         map[string]bool // analyzer name → on/off; missing = on
	UnrolledLoopMax int             // 0 = default 32
}

// Names are the names of the analyzers of the suite, in order; the last,
// "directive", reports bad suppression directives (see package suppress).
var Names = []string{"tracedbool", "unrolledloop", "staticargs", "shapechurn", "traceeffect", suppress.Name}

// Suite returns fresh analyzer values for cfg (no shared mutable state between calls).
// The enabled analyzers share one fresh traced prerequisite, and drop the
// findings that //jitlint:ignore and //jitlint:file-ignore directives suppress.
func Suite(cfg Config) []*analysis.Analyzer {
	max := cfg.UnrolledLoopMax
	if max <= 0 {
		max = unrolledloop.DefaultMax
	}
	tracer := traced.New()
	all := []*analysis.Analyzer{
		tracedbool.New(tracer),
		unrolledloop.New(tracer, max),
		staticargs.New(tracer),
		shapechurn.New(tracer),
		traceeffect.New(tracer),
	}
	var out []*analysis.Analyzer
	for _, a := range all {
		if enabled(cfg, a.Name) {
			out = append(out, a)
		}
	}
	out = suppress.Apply(out, Names)
	if !enabled(cfg, suppress.Name) {
		out = out[:len(out)-1]
	}
	return out
}

// enabled reports whether cfg turns the analyzer called name on.
func enabled(cfg Config, name string) bool {
	on, ok := cfg.Enabled[name]
	return !ok || on
}

// All returns the default suite (what cmd/jitlint runs).
func All() []*analysis.Analyzer { return Suite(Config{}) }
