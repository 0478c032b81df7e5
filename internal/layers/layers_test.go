package layers

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/architecture.md's generated tables from the table in table_test.go")

// configs are the platforms and build tags the imports are gathered on: a
// package's imports are the union over them, so the test says the same on
// every machine.
var configs = []struct {
	goos, goarch, tags string
}{
	{"linux", "amd64", ""},
	{"linux", "amd64", "purego"},
	{"darwin", "arm64", ""},
	{"windows", "amd64", ""},
}

// graph is the module's import graph, as go list -deps reports it.
type graph struct {
	module  string              // the module path
	root    string              // the module's directory
	pkgs    []string            // the module's packages, module-relative, sorted
	imports map[string][]string // import path → its imports (union over configs), without the standard library
}

var (
	loadOnce   sync.Once
	loaded     *graph
	loadFailed error
)

// load runs go list -deps on the module once per test binary.
func load(t *testing.T) *graph {
	t.Helper()
	loadOnce.Do(func() { loaded, loadFailed = loadGraph() })
	if loadFailed != nil {
		t.Fatal(loadFailed)
	}
	return loaded
}

func loadGraph() (*graph, error) {
	out, err := exec.Command("go", "list", "-m", "-json").Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m: %v", err)
	}
	var mod struct{ Path, Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return nil, err
	}
	g := &graph{module: mod.Path, root: mod.Dir, imports: map[string][]string{}}
	std := map[string]bool{}
	own := map[string]bool{}
	for _, c := range configs {
		cmd := exec.Command("go", "list", "-deps", "-tags="+c.tags, "-json=ImportPath,Standard,DepOnly,Imports", "./...")
		cmd.Dir = mod.Dir
		cmd.Env = append(os.Environ(), "GOOS="+c.goos, "GOARCH="+c.goarch)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("GOOS=%s GOARCH=%s go list -deps -tags=%q ./...: %v\n%s", c.goos, c.goarch, c.tags, err, stderr.Bytes())
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		for dec.More() {
			var p struct {
				ImportPath        string
				Standard, DepOnly bool
				Imports           []string
			}
			if err := dec.Decode(&p); err != nil {
				return nil, err
			}
			if p.Standard {
				std[p.ImportPath] = true
				continue
			}
			if !p.DepOnly {
				own[p.ImportPath] = true
			}
			g.imports[p.ImportPath] = append(g.imports[p.ImportPath], p.Imports...)
		}
	}
	for path, imps := range g.imports {
		imps = slices.DeleteFunc(imps, func(i string) bool { return std[i] })
		slices.Sort(imps)
		g.imports[path] = slices.Compact(imps)
	}
	for path := range own {
		g.pkgs = append(g.pkgs, g.rel(path))
	}
	slices.Sort(g.pkgs)
	return g, nil
}

// rel returns the module-relative name of an import path of the module, or
// the path itself for a third-party package.
func (g *graph) rel(path string) string {
	if r, ok := strings.CutPrefix(path, g.module+"/"); ok {
		return r
	}
	return path
}

// matches reports whether the import path is named by name (see table_test.go).
func (g *graph) matches(path, name string) bool {
	if first, _, _ := strings.Cut(name, "/"); strings.Contains(first, ".") {
		return path == name || strings.HasPrefix(path, name+"/")
	}
	if tree, ok := strings.CutSuffix(name, "/..."); ok {
		full := g.module + "/" + tree
		return path == full || strings.HasPrefix(path, full+"/")
	}
	return path == g.module+"/"+name
}

// temporaryEdge returns the temporary exception for the direct import
// from → to (both import paths), if there is one.
func (g *graph) temporaryEdge(from, to string) (temporary, bool) {
	for _, e := range temporaries {
		if g.rel(from) == e.from && g.rel(to) == e.to {
			return e, true
		}
	}
	return temporary{}, false
}

// TestImportTable checks every package's direct imports against its row in
// layers, and that the table has no row, name or exception the code does
// not need.
func TestImportTable(t *testing.T) {
	g := load(t)
	rowOf := map[string]int{}
	for i, l := range layers {
		for _, p := range strings.Fields(l.pkgs) {
			if j, dup := rowOf[p]; dup {
				t.Errorf("%s is in two rows of layers (%d and %d); keep one", p, j+1, i+1)
			}
			rowOf[p] = i
			if !slices.Contains(g.pkgs, p) {
				t.Errorf("layers has a row for %s, which is not a package of the module; delete it", p)
			}
		}
	}
	used := map[[2]int]bool{} // {row, index of the name in its imports} → some package imports it
	usedTemporary := map[temporary]bool{}
	for _, p := range g.pkgs {
		i, ok := rowOf[p]
		if !ok {
			t.Errorf("package %s has no row in layers (internal/layers/table_test.go): add it, with what it may import", p)
			continue
		}
		allowed := strings.Fields(layers[i].imports)
		for _, imp := range g.imports[g.module+"/"+p] {
			if e, ok := g.temporaryEdge(g.module+"/"+p, imp); ok {
				usedTemporary[e] = true
				continue
			}
			k := slices.IndexFunc(allowed, func(name string) bool { return g.matches(imp, name) })
			if k < 0 {
				t.Errorf("%s imports %s, which its row in layers does not allow (%s); "+
					"if the edge is sound, add it there and run go test ./internal/layers -update", p, g.rel(imp), orNothing(layers[i].imports))
				continue
			}
			used[[2]int{i, k}] = true
		}
	}
	for i, l := range layers {
		for k, name := range strings.Fields(l.imports) {
			if !used[[2]int{i, k}] {
				t.Errorf("the row of %s allows %s, which none of them imports; delete it from the row", l.pkgs, name)
			}
		}
	}
	for _, e := range temporaries {
		if !usedTemporary[e] {
			t.Errorf("the temporary edge %s → %s (%s) is gone from the code; delete it from temporaries", e.from, e.to, e.issue)
		}
		if i, ok := rowOf[e.from]; ok && slices.Contains(strings.Fields(layers[i].imports), e.to) {
			t.Errorf("%s → %s is both in the row of %s and temporary; keep it in one place", e.from, e.to, e.from)
		}
	}
}

// TestNever checks the rules in never against each package's transitive
// dependencies, the temporary edges left out, and names for each package
// and rule the shortest chain of imports that breaks it.
func TestNever(t *testing.T) {
	g := load(t)
	for _, r := range never {
		for _, p := range g.pkgs {
			full := g.module + "/" + p
			if !slices.ContainsFunc(strings.Fields(r.pkgs), func(name string) bool { return g.matches(full, name) }) {
				continue
			}
			for _, d := range g.deps(full) {
				if slices.ContainsFunc(strings.Fields(r.never), func(name string) bool { return g.matches(d.path, name) }) {
					t.Errorf("%s depends on %s (%s), which it must never do: %s", p, g.rel(d.path), d.chain, r.why)
					break
				}
			}
		}
	}
}

// A dep is a transitive dependency and the chain of imports that reaches it.
type dep struct{ path, chain string }

// deps returns the transitive dependencies of the package at path (not the
// standard library, not through temporary edges), nearest first.
func (g *graph) deps(path string) []dep {
	out := []dep{{path, g.rel(path)}}
	seen := map[string]bool{path: true}
	for i := 0; i < len(out); i++ {
		for _, imp := range g.imports[out[i].path] {
			if _, tmp := g.temporaryEdge(out[i].path, imp); seen[imp] || tmp {
				continue
			}
			seen[imp] = true
			out = append(out, dep{imp, out[i].chain + " → " + g.rel(imp)})
		}
	}
	return out[1:]
}

// The generated part of docs/architecture.md lies between these lines.
const (
	docBegin = "<!-- Generated from internal/layers/table_test.go by go test ./internal/layers -update; do not edit. -->\n"
	docEnd   = "<!-- End of the generated tables. -->\n"
)

// TestArchitectureDoc checks that docs/architecture.md shows the table as
// it is; with -update it rewrites that part of the doc.
func TestArchitectureDoc(t *testing.T) {
	g := load(t)
	file := filepath.Join(g.root, "docs", "architecture.md")
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := strings.Cut(string(doc), docBegin)
	_, after, ok2 := strings.Cut(rest, docEnd)
	if !ok || !ok2 {
		t.Fatalf("%s has no generated part (the lines %q and %q); put them back where the import table goes", file, docBegin, docEnd)
	}
	want := before + docBegin + renderTables() + docEnd + after
	if want == string(doc) {
		return
	}
	if *update {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s does not show the table in internal/layers/table_test.go; run go test ./internal/layers -update", file)
}

// renderTables writes layers, temporaries and never as Markdown tables.
func renderTables() string {
	var b strings.Builder
	b.WriteString("| package | imports (besides the standard library) | what it is |\n|---|---|---|\n")
	for _, l := range layers {
		imports := codeList(l.imports)
		for _, e := range temporaries {
			if slices.Contains(strings.Fields(l.pkgs), e.from) {
				imports += fmt.Sprintf(", and for now `%s` (temporary, %s)", e.to, e.issue)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", codeList(l.pkgs), orNothing(imports), l.note)
	}
	b.WriteString("\nWhat must never depend on what, even through other packages:\n\n")
	b.WriteString("| packages | never depend on | because |\n|---|---|---|\n")
	for _, r := range never {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", codeList(r.pkgs), codeList(r.never), r.why)
	}
	return b.String()
}

// codeList renders a space-separated list as comma-separated code spans.
func codeList(list string) string {
	names := strings.Fields(list)
	for i, n := range names {
		names[i] = "`" + n + "`"
	}
	return strings.Join(names, ", ")
}

// orNothing is s, or "nothing" for an empty list.
func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}
