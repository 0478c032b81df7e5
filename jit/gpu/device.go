package gpu

import "github.com/jitlint/jitlint/jit/gpu/internal/devapi"

// The executor's view of a GPU (see devapi): cudaDevice implements it with
// the CUDA driver, the tests and gpucheck with the PTX interpreter.
type (
	device     = devapi.Device
	deviceInfo = devapi.Info
	module     = devapi.Module
	kernelFunc = devapi.Func
)
