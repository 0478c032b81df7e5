// Package golangci registers the jitlint analyzers as a golangci-lint
// module plugin named "jitlint".
//
// Build a golangci-lint that includes it with golangci-lint's own tool,
// golangci-lint custom, from a .custom-gcl.yml that names this package, and
// enable the linter in .golangci.yml; docs/analyzers.md shows both files.
// CI builds golangci-lint v2.15.0 this way and checks the plugin's findings
// on the codelab (scripts/golangci-check.sh).
//
// Settings (under linters.settings.custom.jitlint.settings):
//
//	disable: [staticargs]   # analyzer names to turn off, directive too (default: none)
//	unrolledloop-max: 64    # default 32
package golangci

import (
	"fmt"
	"slices"

	"github.com/golangci/plugin-module-register/register"
	"github.com/jitlint/jitlint/analyzers"
	"golang.org/x/tools/go/analysis"
)

func init() {
	register.Plugin("jitlint", New)
}

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Disable lists analyzer names to turn off.
	Disable []string `json:"disable"`
	// UnrolledLoopMax is the largest trip count unrolledloop accepts (0: 32).
	UnrolledLoopMax int `json:"unrolledloop-max"`
}

// New makes the plugin from its raw settings.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, fmt.Errorf("jitlint plugin settings in .golangci.yml: %w (known keys: disable, unrolledloop-max)", err)
	}
	cfg := analyzers.Config{Enabled: map[string]bool{}, UnrolledLoopMax: s.UnrolledLoopMax}
	for _, name := range s.Disable {
		if !slices.Contains(analyzers.Names, name) {
			return nil, fmt.Errorf("jitlint plugin settings in .golangci.yml: disable: unknown analyzer %q (known: %v)", name, analyzers.Names)
		}
		cfg.Enabled[name] = false
	}
	if s.UnrolledLoopMax < 0 {
		return nil, fmt.Errorf("jitlint plugin settings in .golangci.yml: unrolledloop-max is %d; it must be positive (or 0 for the default 32)", s.UnrolledLoopMax)
	}
	return &plugin{cfg: cfg}, nil
}

type plugin struct{ cfg analyzers.Config }

// BuildAnalyzers returns a fresh suite for the settings.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return analyzers.Suite(p.cfg), nil
}

// GetLoadMode asks for type information: the analyzers need it.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
