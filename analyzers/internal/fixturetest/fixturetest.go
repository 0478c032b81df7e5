// Package fixturetest helps the analyzers' tests use the shared fixtures in
// the module's top-level testdata directory: a module named fixtures that
// requires this checkout (replace github.com/jitlint/jitlint => ../), so
// that the fixtures are type-checked against the real jit package.
package fixturetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Dir returns the absolute path of the module's top-level testdata directory,
// the root of the fixtures module (analysistest runs in module mode there:
// name packages as "./tracedbool/a").
func Dir(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("fixturetest: cannot find the source directory")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata")
}

// Fixes runs a on the fixture package pkg with its suggested fixes
// applied, and checks the fixed files against their .go.golden versions,
// that there are exactly want fixes, and that the fixed code builds.
func Fixes(t testing.TB, a *analysis.Analyzer, pkg string, want int) {
	t.Helper()
	dir := Dir(t)
	results := analysistest.RunWithSuggestedFixes(t, dir, a, pkg)
	countFixes(t, results, want)
	buildGolden(t, dir, pkg)
}

// buildGolden checks that the fixed code compiles: it copies the fixture
// package pkg (its .go files replaced by their .go.golden versions where
// one exists) into a temporary module that requires this checkout, and
// runs go build on it.
func buildGolden(t testing.TB, dir, pkg string) {
	t.Helper()
	tmp := t.TempDir()
	from := filepath.Join(dir, filepath.FromSlash(pkg))
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(tmp, "fixed"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		src := filepath.Join(from, name)
		if _, err := os.Stat(src + ".golden"); err == nil {
			src += ".golden"
		}
		copyFile(t, src, filepath.Join(tmp, "fixed", name))
	}
	root, err := filepath.Abs(filepath.Join(dir, ".."))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module fixtures\n\ngo 1.26.0\n\nrequire github.com/jitlint/jitlint v0.0.0\n\nreplace github.com/jitlint/jitlint => " + root + "\n"
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(dir, "go.sum"), filepath.Join(tmp, "go.sum"))
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fixed code of %s does not build: %v\n%s", pkg, err, out)
	}
}

// copyFile copies the file from to the file to.
func copyFile(t testing.TB, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// countFixes fails the test unless the diagnostics of results carry exactly
// want suggested fixes. (analysistest.RunWithSuggestedFixes checks the
// .golden files only for files that some fix edits: with no fix at all it
// passes, so the tests count them.)
func countFixes(t testing.TB, results []*analysistest.Result, want int) {
	t.Helper()
	got := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			got += len(d.SuggestedFixes)
		}
	}
	if got != want {
		t.Errorf("got %d suggested fixes, want %d", got, want)
	}
}
