package lsp

import (
	"go/types"
	"strings"
	"testing"
)

// TestCostTitleShowsGPUEstimate: a measurement made without a GPU but with
// ptxas carries the offline estimate, and the lens title shows it after
// the measured figures; without one the title is unchanged.
func TestCostTitleShowsGPUEstimate(t *testing.T) {
	m := &previewResult{Backend: "cpu", CompileMs: 2, LowerMs: 1, CachedCallMs: 0.5}
	if got, want := costTitle(m), "compile 3.0 ms · cached 0.50 ms · cpu"; got != want {
		t.Errorf("without an estimate: %q, want %q", got, want)
	}
	m.GPUEstimate = "gpu sm_90 ≈ 41.2 ms (estimate: PTX 1.3 ms + offline ptxas 39.9 ms)"
	if got, want := costTitle(m), "compile 3.0 ms · cached 0.50 ms · cpu · gpu sm_90 ≈ 41.2 ms (estimate: PTX 1.3 ms + offline ptxas 39.9 ms)"; got != want {
		t.Errorf("with an estimate: %q, want %q", got, want)
	}
}

// TestHarnessLinksGPUAsThePackageDoes: the preview harness imports the GPU
// backend (and reports its estimate) only when the previewed package links
// it, directly or through an import; otherwise it imports only jit.
func TestHarnessLinksGPUAsThePackageDoes(t *testing.T) {
	jitPkg := types.NewPackage(jitPkgPath, "jit")
	gpuPkg := types.NewPackage(gpuPkgPath, "gpu")
	lib := types.NewPackage("example.com/m/lib", "lib")
	lib.SetImports([]*types.Package{jitPkg, gpuPkg})
	for _, c := range []struct {
		name    string
		imports []*types.Package
		want    bool
	}{
		{"jit only", []*types.Package{jitPkg}, false},
		{"jit/gpu directly", []*types.Package{jitPkg, gpuPkg}, true},
		{"jit/gpu through a library", []*types.Package{jitPkg, lib}, true},
	} {
		pkg := types.NewPackage("example.com/m/p", "p")
		pkg.SetImports(c.imports)
		src, err := generateHarness("p", pkg, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(string(src), `jitlsgpu "`+gpuPkgPath+`"`) && strings.Contains(string(src), "jitlsgpu.EstimateCompile")
		if got != c.want || strings.Contains(string(src), "jitlsgpu") != c.want {
			t.Errorf("%s: harness links the GPU backend: %v, want %v\n%s", c.name, got, c.want, src)
		}
	}
}
