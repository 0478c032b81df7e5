package gpu

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"
	"unsafe"
)

// cudaDevice is device 0 of the CUDA driver, with its primary context and
// one stream on which all work is ordered.
type cudaDevice struct {
	d      *driver
	dev    int32
	ctx    uintptr
	stream uintptr
	inf    deviceInfo
}

// openCUDA initialises the driver at libPath and device 0.
func openCUDA(libPath string) (*cudaDevice, error) {
	d, err := loadDriver(libPath)
	if err != nil {
		return nil, err
	}
	if err := d.check("cuInit", d.cuInit(0)); err != nil {
		return nil, err
	}
	var n int32
	if err := d.check("cuDeviceGetCount", d.cuDeviceGetCount(&n)); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("the CUDA driver reports no devices")
	}
	c := &cudaDevice{d: d}
	if err := d.check("cuDeviceGet", d.cuDeviceGet(&c.dev, 0)); err != nil {
		return nil, err
	}
	name := make([]byte, 256)
	if err := d.check("cuDeviceGetName", d.cuDeviceGetName(&name[0], int32(len(name)), c.dev)); err != nil {
		return nil, err
	}
	c.inf.Name = strings.TrimRight(string(name), "\x00")
	for _, a := range []struct {
		attr int32
		dst  *int
	}{{attrComputeCapMajor, &c.inf.Major}, {attrComputeCapMinor, &c.inf.Minor}, {attrMultiprocessorCount, &c.inf.SMs}} {
		var v int32
		if err := d.check("cuDeviceGetAttribute", d.cuDeviceGetAttribute(&v, a.attr, c.dev)); err != nil {
			return nil, err
		}
		*a.dst = int(v)
	}
	if err := d.check("cuDeviceTotalMem_v2", d.cuDeviceTotalMem(&c.inf.TotalMem, c.dev)); err != nil {
		return nil, err
	}
	if err := d.check("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain(&c.ctx, c.dev)); err != nil {
		return nil, err
	}
	if err := c.current(); err != nil {
		return nil, err
	}
	if err := d.check("cuStreamCreate", d.cuStreamCreate(&c.stream, 0)); err != nil {
		return nil, err
	}
	return c, nil
}

// current makes the primary context current on this OS thread. Driver calls
// may run on any goroutine's thread, so every entry point calls it.
func (c *cudaDevice) current() error {
	return c.d.check("cuCtxSetCurrent", c.d.cuCtxSetCurrent(c.ctx))
}

func (c *cudaDevice) Info() deviceInfo { return c.inf }

func (c *cudaDevice) Alloc(n int) (uint64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.current(); err != nil {
		return 0, err
	}
	var p uint64
	if err := c.d.check("cuMemAlloc_v2", c.d.cuMemAlloc(&p, uint64(n))); err != nil {
		return 0, fmt.Errorf("allocating %d bytes on the GPU: %w", n, err)
	}
	return p, nil
}

func (c *cudaDevice) Free(p uint64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if c.current() == nil {
		c.d.cuMemFree(p)
	}
}

func (c *cudaDevice) Upload(dst uint64, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.current(); err != nil {
		return err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&src[0])
	// The synchronous copy is ordered after all prior work in the context.
	if err := c.d.check("cuStreamSynchronize", c.d.cuStreamSynchronize(c.stream)); err != nil {
		return err
	}
	return c.d.check("cuMemcpyHtoD_v2", c.d.cuMemcpyHtoD(dst, unsafe.Pointer(&src[0]), uint64(len(src))))
}

func (c *cudaDevice) Download(dst []byte, src uint64) error {
	if len(dst) == 0 {
		return nil
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.current(); err != nil {
		return err
	}
	if err := c.d.check("cuStreamSynchronize", c.d.cuStreamSynchronize(c.stream)); err != nil {
		return err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&dst[0])
	return c.d.check("cuMemcpyDtoH_v2", c.d.cuMemcpyDtoH(unsafe.Pointer(&dst[0]), src, uint64(len(dst))))
}

func (c *cudaDevice) CopyD(dst, src uint64, n int) error {
	if n == 0 {
		return nil
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.current(); err != nil {
		return err
	}
	return c.d.check("cuMemcpyDtoDAsync_v2", c.d.cuMemcpyDtoDAsync(dst, src, uint64(n), c.stream))
}

// loadModule compiles PTX with cuModuleLoadDataEx, asking for the JIT wall
// time and the info and error logs.
func (c *cudaDevice) LoadModule(ptx string) (module, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.current(); err != nil {
		return module{}, err
	}
	const logSize = 1 << 14
	image := append([]byte(ptx), 0)
	infoLog := make([]byte, logSize)
	errLog := make([]byte, logSize)
	opts := []int32{jitWallTime, jitInfoLogBuffer, jitInfoLogBufferBytes, jitErrorLogBuffer, jitErrorLogBufferBytes, jitLogVerbose}
	vals := []uintptr{0, uintptr(unsafe.Pointer(&infoLog[0])), logSize, uintptr(unsafe.Pointer(&errLog[0])), logSize, 1}
	var pin runtime.Pinner
	defer pin.Unpin()
	for _, p := range []*byte{&image[0], &infoLog[0], &errLog[0]} {
		pin.Pin(p)
	}
	pin.Pin(&opts[0])
	pin.Pin(&vals[0])
	var mod uintptr
	code := c.d.cuModuleLoadDataEx(&mod, &image[0], uint32(len(opts)), &opts[0], &vals[0])
	if err := c.d.check("cuModuleLoadDataEx", code); err != nil {
		return module{}, fmt.Errorf("the CUDA driver rejected the generated PTX: %w\n%s", err, cBytes(errLog))
	}
	wallMS := math.Float32frombits(uint32(vals[0]))
	m := module{Handle: mod, Funcs: map[string]kernelFunc{}, JIT: time.Duration(float64(wallMS) * float64(time.Millisecond)), Log: cBytes(infoLog)}
	for _, name := range kernelNames(ptx) {
		var fn uintptr
		if err := c.d.check("cuModuleGetFunction", c.d.cuModuleGetFunction(&fn, mod, name)); err != nil {
			return module{}, fmt.Errorf("kernel %s: %w", name, err)
		}
		m.Funcs[name] = fn
	}
	return m, nil
}

func (c *cudaDevice) Launch(fn kernelFunc, grid, block uint32, args []uint64) error {
	f, ok := fn.(uintptr)
	if !ok {
		return fmt.Errorf("gpu: internal error: kernel handle %T is not a CUDA function", fn)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.current(); err != nil {
		return err
	}
	vals := append([]uint64(nil), args...)
	params := make([]unsafe.Pointer, len(vals)+1)
	var pin runtime.Pinner
	defer pin.Unpin()
	for i := range vals {
		pin.Pin(&vals[i])
		params[i] = unsafe.Pointer(&vals[i])
	}
	pin.Pin(&params[0])
	return c.d.check("cuLaunchKernel", c.d.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, c.stream, &params[0], nil))
}

func (c *cudaDevice) Unload(m module) {
	mod, ok := m.Handle.(uintptr)
	if !ok {
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if c.current() == nil {
		c.d.cuModuleUnload(mod)
	}
}

// timer records a CUDA event now; stop records another and returns the
// device time between them.
func (c *cudaDevice) Timer() (func() (time.Duration, error), error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.current(); err != nil {
		return nil, err
	}
	var start, end uintptr
	if err := c.d.check("cuEventCreate", c.d.cuEventCreate(&start, 0)); err != nil {
		return nil, err
	}
	if err := c.d.check("cuEventCreate", c.d.cuEventCreate(&end, 0)); err != nil {
		return nil, err
	}
	if err := c.d.check("cuEventRecord", c.d.cuEventRecord(start, c.stream)); err != nil {
		return nil, err
	}
	return func() (time.Duration, error) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer c.d.cuEventDestroy(start)
		defer c.d.cuEventDestroy(end)
		if err := c.current(); err != nil {
			return 0, err
		}
		if err := c.d.check("cuEventRecord", c.d.cuEventRecord(end, c.stream)); err != nil {
			return 0, err
		}
		if err := c.d.check("cuEventSynchronize", c.d.cuEventSynchronize(end)); err != nil {
			return 0, err
		}
		var ms float32
		if err := c.d.check("cuEventElapsedTime", c.d.cuEventElapsedTime(&ms, start, end)); err != nil {
			return 0, err
		}
		return time.Duration(float64(ms) * float64(time.Millisecond)), nil
	}, nil
}

// cBytes returns the NUL-terminated prefix of a log buffer, trimmed.
func cBytes(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}
