package golangci_test

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	_ "github.com/jitlint/jitlint/analyzers/golangci"
)

func TestPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("jitlint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{"disable": []string{"staticargs"}, "unrolledloop-max": 64})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 5 { // 4 checks and directive
		t.Errorf("got %d analyzers with staticargs disabled, want 5 (4 checks and directive)", len(as))
	}
	for _, a := range as {
		if a.Name == "unrolledloop" && a.Flags.Lookup("max").Value.String() != "64" {
			t.Errorf("unrolledloop max = %s, want 64", a.Flags.Lookup("max").Value)
		}
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
}

func TestPluginBadSettings(t *testing.T) {
	newPlugin, _ := register.GetPlugin("jitlint")
	for _, conf := range []map[string]any{
		{"disable": []string{"nosuch"}},
		{"unrolledloop-max": -1},
		{"colour": "red"},
	} {
		if _, err := newPlugin(conf); err == nil || !strings.Contains(err.Error(), ".golangci.yml") {
			t.Errorf("settings %v: error %v, want one that names .golangci.yml", conf, err)
		}
	}
}

