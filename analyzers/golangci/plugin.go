// Package golangci registers the jitlint analyzers as a golangci-lint
// module plugin named "jitlint".
//
// Build a golangci-lint that includes it with golangci-lint's own tool
// (golangci-lint custom): put this .custom-gcl.yml next to your go.mod
//
//	version: v2.8.0   # the golangci-lint version to build (v2 config layout)
//	name: custom-gcl
//	destination: ./bin
//	plugins:
//	  - module: github.com/jitlint/jitlint
//	    import: github.com/jitlint/jitlint/analyzers/golangci
//	    version: v0.1.0   # or: path: /path/to/a/jitlint/checkout
//
// run golangci-lint custom, and enable the linter in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable:
//	    - jitlint
//	  settings:
//	    custom:
//	      jitlint:
//	        type: module
//	        description: static checks for code traced by github.com/jitlint/jitlint/jit
//	        settings:
//	          disable: [staticargs]     # analyzer names to turn off, directive too (default: none)
//	          unrolledloop-max: 64      # default 32
//
// then run ./bin/custom-gcl run ./...
//
// The custom build uses the highest golang.org/x/tools version that
// golangci-lint and this module require (v0.52.0 here). This layout follows
// golangci-lint's module plugin documentation; it was not built here, as
// this machine cannot download golangci-lint.
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
