package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// copyDir copies the .go files of from into to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fixtureModule copies fixture packages (paths in the fixtures module,
// testdata/) into a temporary fixtures module that requires this checkout
// (the real jit), and returns its directory.
func fixtureModule(t *testing.T, pkgs ...string) string {
	t.Helper()
	root := moduleRoot(t)
	fixtures := filepath.Join(root, "testdata")
	tmp := t.TempDir()
	for _, pkg := range pkgs {
		copyDir(t, filepath.Join(fixtures, filepath.FromSlash(pkg)), filepath.Join(tmp, filepath.FromSlash(pkg)))
	}
	sum, err := os.ReadFile(filepath.Join(fixtures, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module fixtures\n\ngo 1.26.0\n\nrequire github.com/jitlint/jitlint v0.0.0\n\nreplace github.com/jitlint/jitlint => " + root + "\n",
		"go.sum": string(sum),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tmp
}

// offline is the environment for go commands in a fixture module.
func offline() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
}

// TestGoVetFacts runs go vet with jitlint on the cross-package fixtures
// (testdata/tracedbool/{helpers,cross}): the findings in cross need the facts that go vet carries from
// helpers' vet run to cross's.
func TestGoVetFacts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds jitlint and runs go vet")
	}
	tmp := fixtureModule(t, "tracedbool/helpers", "tracedbool/cross")
	// The expected findings are the lines of cross.go with a want comment.
	data, err := os.ReadFile(filepath.Join(tmp, "tracedbool", "cross", "cross.go"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "// want") {
			want = append(want, fmt.Sprintf("tracedbool cross.go:%d", i+1))
		}
	}
	slices.Sort(want)

	bin := buildJitlint(t)
	cmd := exec.Command("go", "vet", "-vettool="+bin, "-json", "./tracedbool/cross")
	cmd.Dir = tmp
	cmd.Env = offline()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	compare(t, "go vet -vettool=jitlint (cross-package facts)", jsonFindings(t, out), want)
}

// TestGoVetFix applies the fixes through go vet -fix (the tool writes a zip
// archive of fixed files that go vet then writes back, with no clean-up of
// imports): the results are the golden files of the analysistest fixtures,
// the Where rewrite of tracedbool and the DebugPrint rewrite of traceeffect
// that also deletes the fmt import.
func TestGoVetFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds jitlint and runs go vet")
	}
	tmp := fixtureModule(t, "tracedbool/a", "traceeffect/fixone")
	bin := buildJitlint(t)
	cmd := exec.Command("go", "vet", "-vettool="+bin, "-fix", "./tracedbool/a", "./traceeffect/fixone")
	cmd.Dir = tmp
	cmd.Env = offline()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet -fix: %v\n%s", err, out)
	}
	for _, file := range []string{"tracedbool/a/fix.go", "traceeffect/fixone/fixone.go"} {
		golden := file + ".golden"
		got, err := os.ReadFile(filepath.Join(tmp, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(moduleRoot(t), "testdata", filepath.FromSlash(golden)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s after go vet -fix:\n%s\nwant (%s):\n%s", file, got, golden, want)
		}
	}
}
