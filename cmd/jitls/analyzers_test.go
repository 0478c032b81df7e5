package main

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/jitlint/jitlint/lsp"
	"github.com/jitlint/jitlint/lsp/lsptest"
)

// TestAnalyzersRunDespiteTypeErrors: a half-typed line elsewhere in the file
// (as while typing) must not hide the finding on ReluBad.
func TestAnalyzersRunDespiteTypeErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	dir := lsptest.SampleModule(t, map[string]string{
		"relu/typing.go": "package relu\n\nfunc typing() int { return undefinedName + 1 }\n",
	})
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: false}, "./relu")
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("load: %v %v", err, pkgs)
	}
	if !pkgs[0].IllTyped {
		t.Fatal("the sample should be ill-typed")
	}
	graph, err := checker.Analyze(analyzerSuite(lsp.Settings{}), pkgs, &checker.Options{Sequential: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			if act.Analyzer.Name == "tracedbool" && filepath.Base(pos.Filename) == "relu.go" {
				found = true
			}
		}
	}
	if !found {
		t.Error("no tracedbool finding on ReluBad in an ill-typed package")
	}
}
