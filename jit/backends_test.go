package jit_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// TestGPUNotLinked: this test binary does not import jit/gpu, so asking
// for the gpu backend is a *jit.Error that names the import to add, and
// the default backend is cpu.
func TestGPUNotLinked(t *testing.T) {
	const want = `add import _ "github.com/jitlint/jitlint/jit/gpu"`
	_, err := jit.Jit(func(x jit.Array) jit.Array { return x.Sin() }, jit.Backend("gpu")).Lower(jit.Spec(jit.Float32, 4))
	var je *jit.Error
	if !errors.As(err, &je) || je.Kind != jit.BackendFailure || !strings.Contains(je.Msg, want) {
		t.Errorf("Lower on backend gpu without the import: %v, want a BackendFailure *jit.Error containing %q", err, want)
	}
	if err := jit.BackendError("gpu"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("BackendError(gpu) = %v, want it to contain %q", err, want)
	}
	if os.Getenv("JIT_PLATFORM") == "" && jit.DefaultBackend() != "cpu" {
		t.Errorf("DefaultBackend() = %q without the gpu backend linked, want cpu", jit.DefaultBackend())
	}
	if err := jit.BackendError("cpu"); err != nil {
		t.Errorf("BackendError(cpu) = %v", err)
	}
}

// TestLinksNoDriverOrDouble: package jit depends on neither the GPU
// backend nor purego, so a program that does not import jit/gpu links no
// CUDA binding; and jit/gpu depends on no test double (the PTX interpreter,
// the codelab jaxprs), which only its tests and gpucheck link.
func TestLinksNoDriverOrDouble(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil || testing.Short() {
		t.Skip("no go tool here (or -short)")
	}
	for pkg, banned := range map[string][]string{
		".":     {"github.com/jitlint/jitlint/jit/gpu", "purego"},
		"./gpu": {"ptxsim", "codelab"},
	} {
		out, err := exec.Command(goTool, "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, b := range banned {
				if strings.Contains(dep, b) {
					t.Errorf("go list -deps %s lists %s", pkg, dep)
				}
			}
		}
	}
}
