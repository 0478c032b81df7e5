package main

import (
	"testing"

	"github.com/jitlint/jitlint/internal/jitapi"
)

// TestLoadTypesFromSourceOnlyWhereAnalysed: the codelab and jit (which the
// analyzers run on for its facts) are type-checked from source, with one
// types.Package per path; the standard library comes from export data, so
// it has no syntax and is not among the packages the checker visits.
func TestLoadTypesFromSourceOnlyWhereAnalysed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	t.Chdir("../..") // the module root
	pkgs, err := loadPackages([]string{"./examples/codelab"}, false)
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("loadPackages: %v, %d packages", err, len(pkgs))
	}
	p := pkgs[0]
	if len(p.Errors) > 0 || p.Types == nil || !p.Types.Complete() || len(p.Syntax) == 0 || p.TypesInfo == nil {
		t.Fatalf("codelab: errors %v, types %v, %d files", p.Errors, p.Types, len(p.Syntax))
	}
	jit := p.Imports[jitapi.JitPath]
	if jit == nil || len(jit.Syntax) == 0 {
		t.Fatalf("jit is not among the codelab's imports checked from source: %v", p.Imports)
	}
	for _, imp := range p.Types.Imports() {
		if imp.Path() == jitapi.JitPath && imp != jit.Types {
			t.Errorf("the codelab's jit is not the jit package checked from source")
		}
	}
	if _, ok := p.Imports["fmt"]; ok {
		t.Errorf("fmt is among the packages checked from source; it should come from export data")
	}
	found := false
	for _, imp := range p.Types.Imports() {
		found = found || imp.Path() == "fmt" && imp.Complete()
	}
	if !found {
		t.Errorf("fmt's types (from export data) are missing: %v", p.Types.Imports())
	}
}
