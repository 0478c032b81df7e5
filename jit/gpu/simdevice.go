package gpu

import (
	"fmt"
	"time"

	"github.com/jitlint/jitlint/jit/gpu/internal/ptxsim"
)

// NewInterpreter returns a GPU backend whose device is the PTX interpreter
// (gpu/internal/ptxsim): the generated PTX, the launches and the host-driven
// control flow all run, slowly, on the CPU. It is for tests and for checking
// the backend on machines without a GPU; its timings mean nothing.
func NewInterpreter() *Backend { return newBackend(newSimDevice()) }

// simDevice is a device backed by the PTX interpreter.
type simDevice struct {
	mem      *ptxsim.Memory
	launches int
}

func newSimDevice() *simDevice { return &simDevice{mem: ptxsim.NewMemory()} }

func (s *simDevice) info() deviceInfo {
	return deviceInfo{name: "ptxsim", major: 9, minor: 0, totalMem: 1 << 30, sms: 1}
}
func (s *simDevice) alloc(n int) (uint64, error) { return s.mem.Alloc(n), nil }
func (s *simDevice) free(p uint64)               { s.mem.Free(p) }
func (s *simDevice) upload(dst uint64, src []byte) error {
	b, err := s.mem.Bytes(dst, len(src))
	if err == nil {
		copy(b, src)
	}
	return err
}
func (s *simDevice) download(dst []byte, src uint64) error {
	b, err := s.mem.Bytes(src, len(dst))
	if err == nil {
		copy(dst, b)
	}
	return err
}
func (s *simDevice) copyD(dst, src uint64, n int) error {
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

// simFunc names a kernel of a parsed module.
type simFunc struct {
	mod  *ptxsim.Module
	name string
}

func (s *simDevice) loadModule(ptx string) (module, error) {
	m, err := ptxsim.Parse(ptx)
	if err != nil {
		return module{}, err
	}
	funcs := map[string]kernelFunc{}
	for name := range m.Kernels {
		funcs[name] = simFunc{m, name}
	}
	return module{funcs: funcs, jit: time.Microsecond, log: "ptxsim"}, nil
}

func (s *simDevice) launch(fn kernelFunc, grid, block uint32, args []uint64) error {
	f, ok := fn.(simFunc)
	if !ok {
		return fmt.Errorf("not a ptxsim kernel: %T", fn)
	}
	s.launches++
	return f.mod.Launch(s.mem, f.name, int(grid), int(block), args)
}
func (s *simDevice) unload(module) {}
func (s *simDevice) timer() (func() (time.Duration, error), error) {
	start := time.Now()
	return func() (time.Duration, error) { return time.Since(start), nil }, nil
}
