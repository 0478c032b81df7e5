package gpu

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// fusedGroup is a run of elementwise equations over one output shape,
// compiled into one kernel with one thread per element. Inputs of the
// group's shape are read at the thread's index; scalar inputs (shape [])
// are read at index 0 (they feed fused scalar broadcasts).
type fusedGroup struct {
	eqns    []*ir.Eqn
	shape   []int
	inputs  []*ir.Var
	outputs []*ir.Var
}

// blockSize is the number of threads per block of every kernel.
const blockSize = 256

// emitFused writes the kernel for g; its parameters are g.inputs then
// g.outputs. It returns the kernel and its grid size.
func emitFused(name string, g *fusedGroup) (*kernel, int, error) {
	n := ir.NumElements(g.shape)
	k := newKernel(name, len(g.inputs)+len(g.outputs))
	idx := k.threadIndex()
	done := k.exitUnless(idx, n)
	vals := map[*ir.Var]value{}
	zero := ""
	for i, v := range g.inputs {
		base := k.param(i)
		at := idx
		if len(v.Aval.Shape) == 0 && len(g.shape) != 0 {
			if zero == "" {
				zero = k.reg("%r")
				k.op("mov.u32 %s, 0", zero)
			}
			at = zero
		}
		if err := checkDType(v.Aval.DType); err != nil {
			return nil, 0, err
		}
		vals[v] = k.load(base, at, v.Aval.DType)
	}
	for _, e := range g.eqns {
		in := make([]value, len(e.In))
		for i, a := range e.In {
			switch a := a.(type) {
			case *ir.Var:
				v, ok := vals[a]
				if !ok {
					return nil, 0, fmt.Errorf("gpu: internal error: %s operand %d is not an input of its fused group", e.Prim, i)
				}
				in[i] = v
			case ir.Literal:
				if err := checkDType(a.Aval.DType); err != nil {
					return nil, 0, err
				}
				in[i] = k.constant(a.Aval.DType, a.Value)
			}
		}
		if err := checkDType(e.Out[0].Aval.DType); err != nil {
			return nil, 0, err
		}
		r, err := k.elementwise(e, in)
		if err != nil {
			return nil, 0, eqnError(e, err)
		}
		vals[e.Out[0]] = r
	}
	for i, v := range g.outputs {
		k.store(k.param(len(g.inputs)+i), idx, vals[v])
	}
	k.mark(done)
	return k, gridFor(n), nil
}

// gridFor is the number of blocks covering n threads (at least 1).
func gridFor(n int) int { return max(1, (n+blockSize-1)/blockSize) }

// checkDType rejects dtypes the backend does not lower.
func checkDType(t ir.DType) error {
	switch t {
	case ir.Float32, ir.Float64, ir.Int32, ir.Int64, ir.Bool:
		return nil
	}
	return fmt.Errorf("dtype %v is not supported by the gpu backend (use float32, float64, int32, int64 or bool)", t)
}

// eqnError prefixes err with the equation and its source position.
func eqnError(e *ir.Eqn, err error) error {
	if e.Source != "" {
		return fmt.Errorf("%s (%s): %w", e.Prim, e.Source, err)
	}
	return fmt.Errorf("%s: %w", e.Prim, err)
}
