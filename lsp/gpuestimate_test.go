package lsp

import (
	"testing"

	"github.com/jitlint/jitlint/jit/preview/result"
)

// TestCostTitleShowsGPUEstimate: a measurement made without a GPU but with
// ptxas carries the offline estimate, and the lens title shows it after
// the measured figures; without one the title is unchanged.
func TestCostTitleShowsGPUEstimate(t *testing.T) {
	m := &result.Preview{Backend: "cpu", CompileMs: 2, LowerMs: 1, CachedCallMs: 0.5}
	if got, want := costTitle(m), "compile 3.0 ms · cached 0.50 ms · cpu"; got != want {
		t.Errorf("without an estimate: %q, want %q", got, want)
	}
	m.GPUEstimate = "gpu sm_90 ≈ 41.2 ms (estimate: PTX 1.3 ms + offline ptxas 39.9 ms)"
	if got, want := costTitle(m), "compile 3.0 ms · cached 0.50 ms · cpu · gpu sm_90 ≈ 41.2 ms (estimate: PTX 1.3 ms + offline ptxas 39.9 ms)"; got != want {
		t.Errorf("with an estimate: %q, want %q", got, want)
	}
}
