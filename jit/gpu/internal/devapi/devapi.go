// Package devapi is what the GPU backend's executor needs from a device:
// memory, copies, module loading and launches. Package gpu implements it
// with the CUDA driver; ptxsim implements it with a PTX interpreter, so
// the whole lowering and execution path runs in tests without a GPU. The
// interface lives here, in an internal package, so that the interpreter is
// linked only into the tests and gpucheck that import it.
package devapi

import (
	"time"

	"github.com/jitlint/jitlint/jit/backend"
)

// Device is a GPU as the executor uses it.
type Device interface {
	// Info describes the device (name, compute capability, memory).
	Info() Info
	// Alloc allocates n bytes of device memory (n > 0).
	Alloc(n int) (uint64, error)
	// Free releases memory from Alloc.
	Free(p uint64)
	// Upload copies host bytes to device memory.
	Upload(dst uint64, src []byte) error
	// Download copies device memory into host bytes; it waits for prior work.
	Download(dst []byte, src uint64) error
	// CopyD copies n bytes between device buffers, in stream order.
	CopyD(dst, src uint64, n int) error
	// LoadModule JIT-compiles PTX and returns its kernels by name.
	LoadModule(ptx string) (Module, error)
	// Launch runs a kernel in stream order with 64-bit arguments.
	Launch(fn Func, grid, block uint32, args []uint64) error
	// Unload releases a module from LoadModule.
	Unload(m Module)
	// Timer starts timing stream work; stop returns the elapsed device time.
	Timer() (stop func() (time.Duration, error), err error)
}

// Info describes a device.
type Info struct {
	Name         string
	Major, Minor int
	TotalMem     uint64
	SMs          int
}

// Module is a loaded PTX module.
type Module struct {
	Handle any // device-specific
	Funcs  map[string]Func
	// JIT is the driver's JIT wall time for the module; Log its info log.
	JIT time.Duration
	Log string
}

// Func is a device-specific kernel handle.
type Func any

// NewBackend returns the GPU backend running on a device. Package gpu sets
// it when it is linked (its init), so callers import gpu too.
var NewBackend func(Device) backend.Backend
