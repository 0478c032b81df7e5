package gpu

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/fusion"
)

// blockSize is the number of threads per block of every kernel.
const blockSize = 256

// emitFused writes the kernel of an elementwise fusion group: one thread per
// element of g.Shape; parameters are g.Inputs then g.Outputs.
func emitFused(name string, g *fusion.Group) (*kernel, int, error) {
	n := ir.NumElements(g.Shape)
	k := newKernel(name, len(g.Inputs)+len(g.Outputs))
	idx := k.threadIndex()
	done := k.exitUnless(idx, n)
	vals, err := k.loadInputs(g.Inputs, idx, g.Shape)
	if err != nil {
		return nil, 0, err
	}
	if err := k.evalChain(g.Eqns, g.Shape, idx, vals); err != nil {
		return nil, 0, err
	}
	for i, v := range g.Outputs {
		k.store(k.param(len(g.Inputs)+i), idx, vals[v])
	}
	k.mark(done)
	return k, gridFor(n), nil
}

// loadInputs reads parameter i (for each input i) at element idx of shape,
// or at element 0 for one-element inputs (scalars feeding broadcasts).
func (k *kernel) loadInputs(inputs []*ir.Var, idx string, shape []int) (map[*ir.Var]value, error) {
	vals := map[*ir.Var]value{}
	zero := ""
	for i, v := range inputs {
		if err := checkDType(v.Aval.DType); err != nil {
			return nil, err
		}
		base := k.param(i)
		at := idx
		if v.Aval.Size() == 1 && ir.NumElements(shape) != 1 {
			if zero == "" {
				zero = k.reg("%r")
				k.op("mov.u32 %s, 0", zero)
			}
			at = zero
		}
		vals[v] = k.load(base, at, v.Aval.DType)
	}
	return vals, nil
}

// evalChain emits eqns (elementwise, iota, scalar broadcasts) for the element
// at flat index idx of shape; operands come from vals, results go into it.
func (k *kernel) evalChain(eqns []*ir.Eqn, shape []int, idx string, vals map[*ir.Var]value) error {
	var coords []string
	for _, e := range eqns {
		if err := checkDType(e.Out[0].Aval.DType); err != nil {
			return eqnError(e, err)
		}
		if e.Prim == ir.Iota {
			dim, ok := e.Params["dimension"].(int)
			if !ok || dim < 0 || dim >= len(shape) {
				return eqnError(e, fmt.Errorf("bad dimension parameter %v", e.Params["dimension"]))
			}
			if coords == nil {
				coords = k.coords(idx, shape)
			}
			vals[e.Out[0]] = k.convert(value{coords[dim], ir.Int32}, e.Out[0].Aval.DType)
			continue
		}
		in := make([]value, len(e.In))
		for i, a := range e.In {
			switch a := a.(type) {
			case *ir.Var:
				v, ok := vals[a]
				if !ok {
					return eqnError(e, fmt.Errorf("gpu: internal error: operand %d is not available in its fused kernel", i))
				}
				in[i] = v
			case ir.Literal:
				if err := checkDType(a.Aval.DType); err != nil {
					return eqnError(e, err)
				}
				in[i] = k.constant(a.Aval.DType, a.Value)
			}
		}
		r, err := k.elementwise(e, in)
		if err != nil {
			return eqnError(e, err)
		}
		vals[e.Out[0]] = r
	}
	return nil
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
	if e.Source != nil {
		return fmt.Errorf("%s (%s): %w", e.Prim, e.Source, err)
	}
	return fmt.Errorf("%s: %w", e.Prim, err)
}
