package gpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/jitlint/jitlint/gpu/internal/ptxsim"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/fusion"
)

// simDevice is a device backed by the PTX interpreter: the lowering, module
// loading and host-driven execution paths all run without a GPU.
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
func (s *simDevice) sync() error { return nil }
func (s *simDevice) timer() (func() (time.Duration, error), error) {
	start := time.Now()
	return func() (time.Duration, error) { return time.Since(start), nil }, nil
}

// runUnaryF32 runs prim over xs through the emitted PTX, interpreted.
func runUnaryF32(t *testing.T, prim string, xs []float32) []float32 {
	t.Helper()
	x := ir.NewVar(ir.Aval{Shape: []int{len(xs)}, DType: ir.Float32})
	y := ir.NewVar(x.Aval)
	g := &fusion.Group{
		Kind:   fusion.Elementwise,
		Eqns:   []*ir.Eqn{{Prim: prim, Params: ir.Params{}, In: []ir.Atom{x}, Out: []*ir.Var{y}}},
		Shape:  x.Aval.Shape,
		Inputs: []*ir.Var{x}, Outputs: []*ir.Var{y},
	}
	k, grid, err := emitFused("k0", g)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := ptxsim.Parse(moduleHeader(9, 0) + k.text())
	if err != nil {
		t.Fatal(err)
	}
	mem := ptxsim.NewMemory()
	in, out := mem.Alloc(4*len(xs)), mem.Alloc(4*len(xs))
	b, _ := mem.Bytes(in, 4*len(xs))
	for i, v := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	if err := mod.Launch(mem, "k0", grid, blockSize, []uint64{in, out}); err != nil {
		t.Fatal(err)
	}
	ob, _ := mem.Bytes(out, 4*len(xs))
	res := make([]float32, len(xs))
	for i := range res {
		res[i] = math.Float32frombits(binary.LittleEndian.Uint32(ob[4*i:]))
	}
	return res
}
