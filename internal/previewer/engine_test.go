package previewer

import (
	"context"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/jitlint/jitlint/jit/preview/result"
	"github.com/jitlint/jitlint/lsp/lsptest"
)

// loadSample writes the jitls sample module and loads its package relu.
func loadSample(t *testing.T) (*packages.Package, string) {
	t.Helper()
	mod := lsptest.SampleModule(t, nil)
	dir := filepath.Join(mod, "relu")
	pkgs, err := packages.Load(&packages.Config{Dir: dir, Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedSyntax | packages.NeedTypesInfo}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the sample: %v %v", err, pkgs)
	}
	return pkgs[0], dir
}

// TestEngine builds and runs a harness for real, with an unsaved change
// in the overlay, and checks the caches, a diff, and that Close leaves
// nothing in the temporary root.
func TestEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	pkg, dir := loadSample(t)
	root := t.TempDir()
	var logged []string
	e := New(Config{TempRoot: root, Logf: func(f string, args ...any) { logged = append(logged, f) }})
	file := filepath.Join(dir, "relu.go")
	disk, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// An unsaved buffer: ReluWhere selects -x instead of 0 (only in the overlay).
	edited := strings.Replace(string(disk), "return jit.Where(x.Gt(0), x, 0.0)", "return jit.Where(x.Gt(0), x, x.Neg())", 1)
	src := &Source{Dir: dir, Name: pkg.Name, Types: pkg.Types, Files: map[string][]byte{file: []byte(edited)}}
	sig := pkg.Types.Scope().Lookup("ReluWhere").(*types.Func).Signature()
	args, _ := ParseArgs(" f32[5]")
	p, err := src.Package([]Target{{Key: "ReluWhere", Func: "ReluWhere", Sig: sig, Args: args}})
	if err != nil {
		t.Fatal(err)
	}
	if e.Cached(p, "ReluWhere", result.Jaxpr) != nil {
		t.Fatal("a cached result before any preview")
	}
	var steps []string
	r, err := e.Preview(context.Background(), p, "ReluWhere", result.Jaxpr, func(s string) { steps = append(steps, s) })
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() || !strings.Contains(r.Jaxpr, "neg a") || len(steps) != 2 || len(logged) == 0 {
		t.Errorf("preview of the edited ReluWhere: %+v (progress %q, log %q)", r, steps, logged)
	}
	if e.Cached(p, "ReluWhere", result.Jaxpr) != r {
		t.Errorf("the preview was not cached")
	}
	// A measurement's result serves a later jaxpr preview, and is the last
	// measurement of the function.
	m, err := e.Preview(context.Background(), p, "ReluWhere", result.Measure, func(string) {})
	if err != nil || m.Failed() || m.Backend == "" || e.LastMeasured(dir, "ReluWhere") != m {
		t.Errorf("measurement: %+v %v", m, err)
	}
	powerSig := pkg.Types.Scope().Lookup("Power").(*types.Func).Signature()
	d, err := e.Diff(context.Background(), &Source{Dir: dir, Name: pkg.Name, Types: pkg.Types},
		Target{Key: "Power", Func: "Power", Sig: powerSig, Static: []int{0}}, [2]string{"2, f32[4]", "3, f32[4]"}, func(string) {})
	if err != nil || d.Summary != "equations 2 → 3; primitives mul 2→3" || !strings.Contains(d.Diff, "+    d:f32[4] = mul c c") {
		t.Errorf("diff of Power: %+v %v", d, err)
	}
	if _, err := e.Diff(context.Background(), src, Target{Key: "Power", Func: "Power", Sig: powerSig, Static: []int{0}}, [2]string{"f32[4]", "3, f32[4]"}, func(string) {}); err == nil ||
		!strings.Contains(err.Error(), "signature 1 gives 1 argument(s) but Power has 2 parameter(s)") {
		t.Errorf("a signature that does not fit: %v", err)
	}
	e.Close()
	if left, _ := os.ReadDir(root); len(left) > 0 {
		t.Errorf("Close left %v in the temporary root", left)
	}
	if _, err := e.Preview(context.Background(), p, "ReluWhere", result.Measure, func(string) {}); err != nil {
		t.Errorf("a cached measurement after Close: %v", err)
	}
	if _, err := e.Preview(context.Background(), p, "Nope", result.Jaxpr, func(string) {}); err == nil {
		t.Errorf("a preview that needs a build after Close succeeded")
	}
}
