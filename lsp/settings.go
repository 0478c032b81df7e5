package lsp

import (
	"encoding/json"
	"fmt"
	"maps"

	"golang.org/x/tools/go/analysis"
)

// Settings are the user-controlled options: initializationOptions at start,
// and (except AllowCodeExecution) workspace/didChangeConfiguration later.
type Settings struct {
	// AllowCodeExecution says the workspace is trusted: previews and
	// measurements compile and run the user's code only when it is true.
	AllowCodeExecution bool
	// Analyzers enables (true) or disables (false) analyzers by name;
	// analyzers not named keep their default.
	Analyzers map[string]bool
	// UnrolledLoopMax is the unrolledloop analyzer's limit (0 = its default).
	UnrolledLoopMax int
	// RuntimeEvents is the file a program run with JITLINT_EVENTS wrote
	// ("" = none): its last run's recompiles become diagnostics.
	RuntimeEvents string
}

func defaultSettings() Settings { return Settings{Analyzers: map[string]bool{}} }

// wireSettings is the JSON shape of initializationOptions and of the
// "jitls" section of didChangeConfiguration's settings.
type wireSettings struct {
	AllowCodeExecution *bool           `json:"allowCodeExecution"`
	Analyzers          map[string]bool `json:"analyzers"`
	UnrolledLoopMax    *int            `json:"unrolledLoopMax"`
	RuntimeEvents      *string         `json:"runtimeEvents"`
}

// apply merges w into a copy of s; trust is changed only if allowTrust.
func (w wireSettings) apply(s Settings, allowTrust bool) (Settings, error) {
	out := s
	out.Analyzers = maps.Clone(s.Analyzers)
	if out.Analyzers == nil {
		out.Analyzers = map[string]bool{}
	}
	if allowTrust && w.AllowCodeExecution != nil {
		out.AllowCodeExecution = *w.AllowCodeExecution
	}
	maps.Copy(out.Analyzers, w.Analyzers)
	if w.UnrolledLoopMax != nil {
		if *w.UnrolledLoopMax < 0 {
			return s, fmt.Errorf("unrolledLoopMax must be >= 0, got %d", *w.UnrolledLoopMax)
		}
		out.UnrolledLoopMax = *w.UnrolledLoopMax
	}
	if w.RuntimeEvents != nil {
		out.RuntimeEvents = *w.RuntimeEvents
	}
	return out, nil
}

// parseInitOptions decodes initializationOptions (absent or null is fine).
func parseInitOptions(raw json.RawMessage) (Settings, error) {
	s := defaultSettings()
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	var w wireSettings
	if err := json.Unmarshal(raw, &w); err != nil {
		return s, fmt.Errorf("initializationOptions: %v (expected {\"allowCodeExecution\": bool, \"analyzers\": {name: bool}, \"unrolledLoopMax\": int, \"runtimeEvents\": path})", err)
	}
	return w.apply(s, true)
}

// parseConfigChange decodes didChangeConfiguration params:
// {"settings": {"jitls": {...}}}. A change without a jitls section is ignored.
func parseConfigChange(raw json.RawMessage, cur Settings) (Settings, error) {
	var p struct {
		Settings struct {
			Jitls *wireSettings `json:"jitls"`
		} `json:"settings"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return cur, fmt.Errorf("workspace/didChangeConfiguration: %v (expected {\"settings\": {\"jitls\": {...}}})", err)
	}
	if p.Settings.Jitls == nil {
		return cur, nil
	}
	return p.Settings.Jitls.apply(cur, false)
}

// suite returns the analyzers for settings.
func (s *Server) suite(st Settings) []*analysis.Analyzer {
	if s.opts.Analyzers == nil {
		return nil
	}
	return s.opts.Analyzers(st)
}
