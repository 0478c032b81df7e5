package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	_ "github.com/jitlint/jitlint/analyzers/golangci"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// suppressWant reads testdata/suppress/findings.txt: the findings every
// driver must report on the suppression fixtures.
func suppressWant(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "testdata", "suppress", "findings.txt"))
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
	return want
}

// TestSuppressDrivers runs jitlint, go vet -vettool=jitlint and the
// golangci-lint plugin's analyzers on the suppression fixtures (in the
// fixtures module, testdata/): all report exactly the findings that the
// directives leave, and the directive analyzer's reports, which
// -directive=false turns off.
func TestSuppressDrivers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds jitlint and runs go vet")
	}
	want := suppressWant(t)
	bin := buildJitlint(t)
	fixtures := filepath.Join(moduleRoot(t), "testdata")
	env := append(os.Environ(), "GOPROXY=off", "GOWORK=off")
	for _, tc := range []struct {
		tool string
		args []string
	}{
		{"jitlint", []string{bin, "-json", "./suppress/..."}},
		{"go vet -vettool=jitlint", []string{"go", "vet", "-vettool=" + bin, "-json", "./suppress/..."}},
	} {
		cmd := exec.Command(tc.args[0], tc.args[1:]...)
		cmd.Dir, cmd.Env = fixtures, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(tc.args, " "), err, out)
		}
		if got := jsonFindings(t, out); !slices.Equal(got, want) {
			t.Errorf("%s on testdata/suppress:\n got  %q\n want %q", tc.tool, got, want)
		}
	}
	if got := pluginFindings(t, fixtures, "./suppress/..."); !slices.Equal(got, want) {
		t.Errorf("golangci-lint plugin on testdata/suppress:\n got  %q\n want %q", got, want)
	}
	cmd := exec.Command(bin, "-json", "-directive=false", "./suppress/...")
	cmd.Dir, cmd.Env = fixtures, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("jitlint -directive=false: %v\n%s", err, out)
	}
	for _, f := range jsonFindings(t, out) {
		if strings.HasPrefix(f, "directive ") {
			t.Errorf("jitlint -directive=false reported %s", f)
		}
	}
}

// pluginFindings runs the golangci-lint plugin's analyzers the way
// golangci-lint's runner does (roots and their prerequisites over loaded
// packages) and returns their findings as "analyzer file:line". (golangci-lint
// itself cannot be built on the development machine.)
func pluginFindings(t *testing.T, dir string, patterns ...string) []string {
	t.Helper()
	newPlugin, err := register.GetPlugin("jitlint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir, Env: append(os.Environ(), "GOPROXY=off", "GOWORK=off")}
	pkgs, err := packages.Load(cfg, patterns...)
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
	return got
}
