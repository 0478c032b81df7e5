package golangci_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	_ "github.com/jitlint/jitlint/analyzers/golangci"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
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

// TestPluginSuppress runs the plugin's analyzers the way golangci-lint's
// runner does (roots and their prerequisites over loaded packages) on the
// suppression fixtures: the findings are those of jitlint and go vet
// (testdata/suppress/findings.txt, checked against both in cmd/jitlint).
func TestPluginSuppress(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the fixtures module from source")
	}
	newPlugin, _ := register.GetPlugin("jitlint")
	p, err := newPlugin(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	fixtures := filepath.Join("..", "..", "testdata")
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  fixtures,
		Env:  append(os.Environ(), "GOPROXY=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "./suppress/...")
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(as, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Fatalf("%s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			got = append(got, fmt.Sprintf("%s %s:%d", act.Analyzer.Name, filepath.Base(pos.Filename), pos.Line))
		}
	}
	slices.Sort(got)
	data, err := os.ReadFile(filepath.Join(fixtures, "suppress", "findings.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			want = append(want, line)
		}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("plugin analyzers on testdata/suppress:\n got  %q\n want %q", got, want)
	}
}
