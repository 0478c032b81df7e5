package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The analyzers' fixture packages that the go vet drivers are compared on:
// packages of the fixtures module in the top-level testdata directory
// ("tracedbool/helpers"), which requires this checkout's jit.
var vetFixtures = map[string][]string{
	"shapechurn":   {"a", "batches"},
	"staticargs":   {"a", "hoist", "layers", "sched"},
	"tracedbool":   {"a", "cross", "helpers"},
	"traceeffect":  {"a", "cross", "fixone", "helpers", "oncemain", "optlib"},
	"unrolledloop": {"a", "ops"},
}

// fixtureWorkspace lays the fixtures out as one module (fixtureModule,
// type-checked against this checkout's jit) and returns it with the
// environment for go commands there (offline).
func fixtureWorkspace(t *testing.T) (string, []string) {
	t.Helper()
	var pkgs []string
	for mod, ps := range vetFixtures {
		for _, p := range ps {
			pkgs = append(pkgs, mod+"/"+p)
		}
	}
	return fixtureModule(t, pkgs...), append(offline(), "GOFLAGS=-mod=mod -buildvcs=false")
}

// vetTool is one go vet driver of the analyzers: a tool and its environment.
type vetTool struct {
	name string
	bin  string
	env  []string // added to the command's environment
}

// vetTools builds jitlint and the stock unitchecker build of the same
// analyzers, and returns the three drivers to compare: jitlint's own, the
// stock build, and jitlint with JITLINT_VET=unitchecker.
func vetTools(t *testing.T) []vetTool {
	t.Helper()
	stock := filepath.Join(t.TempDir(), "unitchecker")
	if out, err := exec.Command("go", "build", "-o", stock, "./testdata/unitchecker").CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/unitchecker: %v\n%s", err, out)
	}
	jitlint := buildJitlint(t)
	return []vetTool{
		{"jitlint's driver", jitlint, nil},
		{"stock unitchecker", stock, nil},
		{"jitlint with JITLINT_VET=unitchecker", jitlint, []string{"JITLINT_VET=unitchecker"}},
	}
}

// goVet runs go vet -vettool=tool args... in dir and returns its output.
func goVet(t *testing.T, tool vetTool, dir string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", append([]string{"vet", "-vettool=" + tool.bin}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clone(env), tool.env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: go vet %s: %v\n%s", tool.name, strings.Join(args, " "), err, out)
	}
	return out
}

// vetJSON gathers go vet -json's per-package objects ({package: {analyzer:
// diagnostics}}, each after a "# package" line) into one object and returns
// it indented, its keys sorted. Packages without findings print nothing or
// an empty object, depending on the driver; both leave no key.
func vetJSON(t *testing.T, out []byte) string {
	t.Helper()
	all := map[string]map[string]json.RawMessage{}
	var body bytes.Buffer
	for line := range strings.Lines(string(out)) {
		if !strings.HasPrefix(line, "#") {
			body.WriteString(line)
		}
	}
	dec := json.NewDecoder(&body)
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("decoding go vet -json output: %v\n%s", err, out)
		}
		for pkg, byAnalyzer := range tree {
			if all[pkg] != nil {
				t.Fatalf("package %s reported twice:\n%s", pkg, out)
			}
			all[pkg] = byAnalyzer
		}
	}
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestVetDriverMatchesUnitchecker runs go vet -json and go vet -fix with
// jitlint's own driver, with a stock unitchecker build of the same analyzers
// and with JITLINT_VET=unitchecker, on the fixtures of every analyzer
// (cross-package facts included) and on the codelab: the findings (positions,
// messages, related information, suggested fixes with their edits) and the
// fixed files must be identical.
func TestVetDriverMatchesUnitchecker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two vet tools and runs go vet six times")
	}
	tools := vetTools(t)
	ws, env := fixtureWorkspace(t)
	root := moduleRoot(t)
	var pkgs []string
	for mod, ps := range vetFixtures {
		for _, p := range ps {
			pkgs = append(pkgs, "./"+mod+"/"+p)
		}
	}
	slices.Sort(pkgs)

	var first string
	for i, tool := range tools {
		got := vetJSON(t, goVet(t, tool, ws, env, append([]string{"-json"}, pkgs...)...)) +
			vetJSON(t, goVet(t, tool, root, os.Environ(), "-json", "./"+codelab))
		if i == 0 {
			first = got
			for _, want := range []string{`"suggested_fixes"`, `"related"`, `/tracedbool/cross"`, `/staticargs/hoist"`, codelab} {
				if !strings.Contains(got, want) {
					t.Fatalf("%s: the findings lack %s, which the comparison needs:\n%s", tool.name, want, got)
				}
			}
			continue
		}
		if got != first {
			t.Errorf("go vet -json: %s and %s differ:\n%s", tools[0].name, tool.name, lineDiff(first, got))
		}
	}

	// go vet -fix writes the fixed files back: compare the trees.
	var fixed []map[string]string
	for _, tool := range tools {
		dir, env := fixtureWorkspace(t)
		goVet(t, tool, dir, env, append([]string{"-fix"}, pkgs...)...)
		fixed = append(fixed, goFiles(t, dir))
	}
	for i := 1; i < len(fixed); i++ {
		for name, want := range fixed[0] {
			if fixed[i][name] != want {
				t.Errorf("go vet -fix: %s after %s:\n%s\nafter %s:\n%s", name, tools[0].name, want, tools[i].name, fixed[i][name])
			}
		}
	}
	changed := 0
	orig, _ := fixtureWorkspace(t)
	for name, content := range goFiles(t, orig) {
		if fixed[0][name] != content {
			changed++
		}
	}
	if changed == 0 {
		t.Error("go vet -fix changed no file: nothing was compared")
	}
}

// goFiles returns the .go files under dir by their path relative to dir.
func goFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// lineDiff shows the first line where a and b differ, with the lines
// around it.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := 0
	for i < len(al) && i < len(bl) && al[i] == bl[i] {
		i++
	}
	lo := max(i-8, 0)
	pick := func(ls []string) string { return strings.Join(ls[lo:min(i+8, len(ls))], "\n") }
	return fmt.Sprintf("line %d:\n%s\n--- versus ---\n%s", i+1, pick(al), pick(bl))
}

// TestVetToolIDPerDriver: go vet caches a tool's results under the ID that
// -V=full prints, so the two drivers must print different IDs, and a
// JITLINT_VET value that names no driver is an error.
func TestVetToolIDPerDriver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds jitlint")
	}
	bin := buildJitlint(t)
	id := func(env ...string) (string, error) {
		cmd := exec.Command(bin, "-V=full")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	own, err1 := id("JITLINT_VET=")
	stock, err2 := id("JITLINT_VET=unitchecker")
	if err1 != nil || err2 != nil {
		t.Fatalf("-V=full: %v, %v", err1, err2)
	}
	if !strings.Contains(own, " buildID=") || stock != own+"-unitchecker" {
		t.Errorf("-V=full: jitlint's driver %q, unitchecker %q; want the second to be the first plus -unitchecker", own, stock)
	}
	if out, err := id("JITLINT_VET=fast"); err == nil || !strings.Contains(out, `JITLINT_VET="fast"`) {
		t.Errorf("JITLINT_VET=fast: %v %q; want an error that names the value", err, out)
	}
}
