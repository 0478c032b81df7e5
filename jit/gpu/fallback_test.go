package gpu

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/backend"
)

// TestOpenMissingLibrary: a driver path that does not exist fails cleanly,
// naming the path and how to fix it.
func TestOpenMissingLibrary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "libcuda.so.1")
	_, err := openWith(path)
	if err == nil {
		t.Fatal("openWith of a missing library succeeded")
	}
	for _, want := range []string{"gpu backend unavailable", "cannot load the CUDA driver " + path, LibraryEnv, "cpu backend"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// TestOpenNotADriver: a library without the CUDA entry points is rejected
// with the missing symbol's name.
func TestOpenNotADriver(t *testing.T) {
	_, err := openWith("libc.so.6")
	if err == nil {
		t.Fatal("libc accepted as the CUDA driver")
	}
	if !strings.Contains(err.Error(), "no symbol cuInit") {
		t.Errorf("error %q does not name the missing symbol", err)
	}
}

// TestAvailableFallback runs a child test process with JITLINT_LIBCUDA
// pointing nowhere: Available reports false with the reason, and the
// registry's "gpu" backend fails to open instead of crashing.
func TestAvailableFallback(t *testing.T) {
	if os.Getenv("GPU_FALLBACK_CHILD") == "1" {
		ok, reason := Available()
		_, err := backend.Get("gpu")
		if ok || err == nil || !strings.Contains(reason, "does-not-exist") || err.Error() != reason {
			t.Fatalf("Available() = %v, %q; backend.Get error %v", ok, reason, err)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAvailableFallback$", "-test.v")
	cmd.Env = append(os.Environ(), "GPU_FALLBACK_CHILD=1", LibraryEnv+"=/does-not-exist/libcuda.so.1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// TestBuildWithoutCgo checks that the package (purego, no cgo) builds with
// CGO_ENABLED=0. It needs the go tool, so it skips on machines without one.
func TestBuildWithoutCgo(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil || testing.Short() {
		t.Skip("no go tool here (or -short)")
	}
	cmd := exec.Command(goTool, "build", "-o", os.DevNull, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
}
