package gpu_test

import (
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/gpu"
)

// TestRegisteredByImport: importing the package registers "gpu" with jit,
// so asking for it gives the driver's verdict (nil with a GPU, the reason
// without one), never jit's "not linked" error.
func TestRegisteredByImport(t *testing.T) {
	err := jit.BackendError("gpu")
	if err != nil && (strings.Contains(err.Error(), "not linked") || !strings.Contains(err.Error(), "gpu backend unavailable")) {
		t.Errorf("BackendError(gpu) with the package imported: %v", err)
	}
	if ok, _ := gpu.Available(); (err == nil) != ok {
		t.Errorf("BackendError(gpu) = %v but Available() = %v", err, ok)
	}
}
