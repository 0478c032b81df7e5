package gpu

import "time"

// device is what the executor needs from a GPU: memory, copies, module
// loading and launches. cudaDevice implements it with the CUDA driver; tests
// implement it with a PTX interpreter, so the whole lowering and execution
// path runs without a GPU.
type device interface {
	// info describes the device (name, compute capability, memory).
	info() deviceInfo
	// alloc allocates n bytes of device memory (n > 0).
	alloc(n int) (uint64, error)
	// free releases memory from alloc.
	free(p uint64)
	// upload copies host bytes to device memory.
	upload(dst uint64, src []byte) error
	// download copies device memory into host bytes; it waits for prior work.
	download(dst []byte, src uint64) error
	// copyD copies n bytes between device buffers, in stream order.
	copyD(dst, src uint64, n int) error
	// loadModule JIT-compiles PTX and returns its kernels by name.
	loadModule(ptx string) (module, error)
	// launch runs a kernel in stream order with 64-bit arguments.
	launch(fn kernelFunc, grid, block uint32, args []uint64) error
	// unload releases a module from loadModule.
	unload(m module)
	// timer starts timing stream work; stop returns the elapsed device time.
	timer() (stop func() (time.Duration, error), err error)
}

// deviceInfo describes a device.
type deviceInfo struct {
	name         string
	major, minor int
	totalMem     uint64
	sms          int
}

// module is a loaded PTX module.
type module struct {
	handle any // device-specific
	funcs  map[string]kernelFunc
	// jit is the driver's JIT wall time for the module; log its info log.
	jit time.Duration
	log string
}

// kernelFunc is a device-specific kernel handle.
type kernelFunc any
