// Package gpuestimate gives a preview harness's measurements the GPU
// backend's offline compile estimate (without a usable GPU but with
// ptxas). The harness imports it, for this side effect, only when the
// previewed package links jit/gpu, as the package's own programs do.
package gpuestimate

import (
	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/gpu"
	"github.com/jitlint/jitlint/jit/preview"
)

func init() {
	preview.SetGPUEstimate(func(cj *jit.ClosedJaxpr) string {
		if est, err := gpu.EstimateCompile(cj.IR()); est != nil && err == nil {
			return est.String()
		}
		return ""
	})
}
