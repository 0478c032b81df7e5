// Package gpu is the CUDA backend: it lowers jaxprs to PTX, loads the PTX
// with the CUDA driver (libcuda.so.1, bound at run time with purego, so no cgo
// is needed), and runs the kernels on an NVIDIA GPU. Control flow (cond,
// while, scan) runs on the host, launching the bodies' kernels.
//
// Package jit links only the CPU backend; a program links this one with
//
//	import _ "github.com/jitlint/jitlint/jit/gpu"
//
// which registers the backend as "gpu" with jit/backend (without it, asking
// jit for "gpu" is an error that names this import).
// Opening it fails with a reason, and Available reports false, when there is
// no driver or no working device; callers then fall back to the CPU backend.
package gpu
