package ptxsim

import (
	"fmt"
	"time"

	"github.com/jitlint/jitlint/jit/gpu/internal/devapi"
)

// Device is a GPU whose kernels run in this interpreter: the generated PTX,
// the launches and the host-driven control flow all run, slowly, on the
// CPU. It is for tests and for checking the backend on machines without a
// GPU (gpucheck -interp); its timings mean nothing.
type Device struct {
	mem *Memory
}

// NewDevice returns a device with empty memory.
func NewDevice() *Device { return &Device{mem: NewMemory()} }

// Info describes the simulated device: an sm_90 named "ptxsim".
func (s *Device) Info() devapi.Info {
	return devapi.Info{Name: "ptxsim", Major: 9, Minor: 0, TotalMem: 1 << 30, SMs: 1}
}

// Alloc allocates n bytes.
func (s *Device) Alloc(n int) (uint64, error) { return s.mem.Alloc(n), nil }

// Free releases memory from Alloc.
func (s *Device) Free(p uint64) { s.mem.Free(p) }

// Upload copies host bytes to device memory.
func (s *Device) Upload(dst uint64, src []byte) error {
	b, err := s.mem.Bytes(dst, len(src))
	if err == nil {
		copy(b, src)
	}
	return err
}

// Download copies device memory into host bytes.
func (s *Device) Download(dst []byte, src uint64) error {
	b, err := s.mem.Bytes(src, len(dst))
	if err == nil {
		copy(dst, b)
	}
	return err
}

// CopyD copies n bytes between device buffers.
func (s *Device) CopyD(dst, src uint64, n int) error {
	d, err := s.mem.Bytes(dst, n)
	if err != nil {
		return err
	}
	b, err := s.mem.Bytes(src, n)
	if err == nil {
		copy(d, b)
	}
	return err
}

// kernelRef names a kernel of a parsed module.
type kernelRef struct {
	mod  *Module
	name string
}

// LoadModule parses the PTX (Parse) and returns its kernels.
func (s *Device) LoadModule(ptx string) (devapi.Module, error) {
	m, err := Parse(ptx)
	if err != nil {
		return devapi.Module{}, err
	}
	funcs := map[string]devapi.Func{}
	for name := range m.Kernels {
		funcs[name] = kernelRef{m, name}
	}
	return devapi.Module{Funcs: funcs, JIT: time.Microsecond, Log: "ptxsim"}, nil
}

// Launch runs a kernel of a module from LoadModule.
func (s *Device) Launch(fn devapi.Func, grid, block uint32, args []uint64) error {
	f, ok := fn.(kernelRef)
	if !ok {
		return fmt.Errorf("not a ptxsim kernel: %T", fn)
	}
	return f.mod.Launch(s.mem, f.name, int(grid), int(block), args)
}

// Unload does nothing: modules are garbage collected.
func (s *Device) Unload(devapi.Module) {}

// Timer measures wall time.
func (s *Device) Timer() (func() (time.Duration, error), error) {
	start := time.Now()
	return func() (time.Duration, error) { return time.Since(start), nil }, nil
}
