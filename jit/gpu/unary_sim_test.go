package gpu

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit/gpu/internal/ptxsim"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/fusion"
)

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
	mod, err := ptxsim.Parse(moduleHeader(9, 0, k.text()) + k.text())
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
