package gpu

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// driver holds the CUDA driver entry points, bound by their versioned
// symbol names. Handles (CUcontext, CUmodule, CUfunction, CUstream, CUevent)
// are uintptr; device pointers are uint64; results are CUresult codes.
type driver struct {
	lib uintptr

	cuInit                   func(flags uint32) int32
	cuDeviceGetCount         func(count *int32) int32
	cuDeviceGet              func(dev *int32, ordinal int32) int32
	cuDeviceGetName          func(name *byte, n int32, dev int32) int32
	cuDeviceGetAttribute     func(v *int32, attrib int32, dev int32) int32
	cuDeviceTotalMem         func(bytes *uint64, dev int32) int32
	cuDevicePrimaryCtxRetain func(ctx *uintptr, dev int32) int32
	cuCtxSetCurrent          func(ctx uintptr) int32
	cuMemAlloc               func(dptr *uint64, size uint64) int32
	cuMemFree                func(dptr uint64) int32
	cuMemcpyHtoD             func(dst uint64, src unsafe.Pointer, n uint64) int32
	cuMemcpyDtoH             func(dst unsafe.Pointer, src uint64, n uint64) int32
	cuMemcpyDtoDAsync        func(dst, src uint64, n uint64, stream uintptr) int32
	cuModuleLoadDataEx       func(mod *uintptr, image *byte, n uint32, opts *int32, vals *uintptr) int32
	cuModuleUnload           func(mod uintptr) int32
	cuModuleGetFunction      func(fn *uintptr, mod uintptr, name string) int32
	cuLaunchKernel           func(f uintptr, gx, gy, gz, bx, by, bz, shmem uint32, stream uintptr, params *unsafe.Pointer, extra *unsafe.Pointer) int32
	cuStreamCreate           func(s *uintptr, flags uint32) int32
	cuStreamSynchronize      func(s uintptr) int32
	cuEventCreate            func(e *uintptr, flags uint32) int32
	cuEventRecord            func(e, s uintptr) int32
	cuEventSynchronize       func(e uintptr) int32
	cuEventElapsedTime       func(ms *float32, start, end uintptr) int32
	cuEventDestroy           func(e uintptr) int32
	cuGetErrorName           func(code int32, s **byte) int32
	cuGetErrorString         func(code int32, s **byte) int32
}

// CUDA driver constants used here (cuda.h).
const (
	attrMultiprocessorCount = 16
	attrComputeCapMajor     = 75
	attrComputeCapMinor     = 76

	jitWallTime            = 2
	jitInfoLogBuffer       = 3
	jitInfoLogBufferBytes  = 4
	jitErrorLogBuffer      = 5
	jitErrorLogBufferBytes = 6
	jitLogVerbose          = 12
)

// loadDriver opens the CUDA driver library at path and binds every entry
// point; it fails (never panics) when the library or a symbol is missing.
func loadDriver(path string) (*driver, error) {
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("cannot load the CUDA driver %s: %v", path, err)
	}
	d := &driver{lib: lib}
	syms := []struct {
		fn   any
		name string
	}{
		{&d.cuInit, "cuInit"},
		{&d.cuDeviceGetCount, "cuDeviceGetCount"},
		{&d.cuDeviceGet, "cuDeviceGet"},
		{&d.cuDeviceGetName, "cuDeviceGetName"},
		{&d.cuDeviceGetAttribute, "cuDeviceGetAttribute"},
		{&d.cuDeviceTotalMem, "cuDeviceTotalMem_v2"},
		{&d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
		{&d.cuCtxSetCurrent, "cuCtxSetCurrent"},
		{&d.cuMemAlloc, "cuMemAlloc_v2"},
		{&d.cuMemFree, "cuMemFree_v2"},
		{&d.cuMemcpyHtoD, "cuMemcpyHtoD_v2"},
		{&d.cuMemcpyDtoH, "cuMemcpyDtoH_v2"},
		{&d.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"},
		{&d.cuModuleLoadDataEx, "cuModuleLoadDataEx"},
		{&d.cuModuleUnload, "cuModuleUnload"},
		{&d.cuModuleGetFunction, "cuModuleGetFunction"},
		{&d.cuLaunchKernel, "cuLaunchKernel"},
		{&d.cuStreamCreate, "cuStreamCreate"},
		{&d.cuStreamSynchronize, "cuStreamSynchronize"},
		{&d.cuEventCreate, "cuEventCreate"},
		{&d.cuEventRecord, "cuEventRecord"},
		{&d.cuEventSynchronize, "cuEventSynchronize"},
		{&d.cuEventElapsedTime, "cuEventElapsedTime"},
		{&d.cuEventDestroy, "cuEventDestroy_v2"},
		{&d.cuGetErrorName, "cuGetErrorName"},
		{&d.cuGetErrorString, "cuGetErrorString"},
	}
	for _, s := range syms {
		addr, err := purego.Dlsym(lib, s.name)
		if err != nil {
			return nil, fmt.Errorf("the CUDA driver %s has no symbol %s (driver too old?): %v", path, s.name, err)
		}
		purego.RegisterFunc(s.fn, addr)
	}
	return d, nil
}

// check turns a CUresult into an error naming the call and the driver's own
// error name and description (e.g. "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY
// (out of memory)").
func (d *driver) check(call string, code int32) error {
	if code == 0 {
		return nil
	}
	var name, desc *byte
	d.cuGetErrorName(code, &name)
	d.cuGetErrorString(code, &desc)
	n, s := cString(name), cString(desc)
	if n == "" {
		n = fmt.Sprintf("CUresult %d", code)
	}
	return fmt.Errorf("%s: %s (%s)", call, n, s)
}

// cString copies a NUL-terminated C string owned by the driver.
func cString(p *byte) string {
	if p == nil {
		return ""
	}
	var b []byte
	for i := 0; i < 4096; i++ {
		c := *(*byte)(unsafe.Add(unsafe.Pointer(p), i))
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return string(b)
}
