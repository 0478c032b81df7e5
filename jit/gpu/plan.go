package gpu

import (
	"fmt"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/fusion"
)

// program is a lowered jaxpr: steps run in order on the host, each a kernel
// launch, an alias (reshape) or host-driven control flow over sub-programs.
type program struct {
	invars  []*ir.Var
	outvars []*ir.Var
	// consts are uploaded once at compile time: the closed jaxpr's constants
	// and literals that had to become arrays (outputs, control-flow operands).
	consts map[*ir.Var]*ir.Buffer
	// owned are the variables whose device buffers this program allocates
	// (kernel outputs).
	owned []*ir.Var
	steps []step
}

// step is one of launchStep, aliasStep, hostStep, *condStep, *whileStep,
// *scanStep, *callStep.
type step any

// launchStep runs kernel with grid blocks; args are its buffers, outputs last.
type launchStep struct {
	kernel string
	grid   int
	args   []*ir.Var
}

// aliasStep makes dst share src's buffer (reshape, squeeze).
type aliasStep struct{ dst, src *ir.Var }

// hostStep reads its operands back and applies an equation without results
// on the host with the reference evaluator (debug_print).
type hostStep struct {
	eqn  *ir.Eqn
	args []*ir.Var
}

// condStep reads index back and runs one branch; outs alias its results.
type condStep struct {
	index    *ir.Var
	branches []*program
	ops      []*ir.Var
	outs     []*ir.Var
}

// whileStep runs body while cond's predicate (read back) holds.
type whileStep struct {
	cond, body              *program
	cconsts, bconsts, carry []*ir.Var
	outs                    []*ir.Var
}

// scanStep runs body length times, slicing xs and stacking ys.
type scanStep struct {
	body              *program
	consts, init, xs  []*ir.Var
	length            int
	reverse           bool
	carryOuts, ysOuts []*ir.Var
}

// callStep runs a nested jit's program; outs alias its results.
type callStep struct {
	body *program
	ins  []*ir.Var
	outs []*ir.Var
}

// lowerer turns jaxprs into programs, collecting kernels into one module.
type lowerer struct {
	kernels []*kernel
}

// newKernelName returns the next kernel name.
func (l *lowerer) newKernelName() string { return fmt.Sprintf("k%d", len(l.kernels)) }

// lower plans a closed jaxpr.
func (l *lowerer) lower(cj *ir.ClosedJaxpr) (*program, error) {
	j := cj.Jaxpr
	if len(cj.Consts) != len(j.Constvars) {
		return nil, fmt.Errorf("closed jaxpr %s has %d constvars but %d constants", cj.Name, len(j.Constvars), len(cj.Consts))
	}
	p := &program{invars: j.Invars, consts: map[*ir.Var]*ir.Buffer{}}
	for i, v := range j.Constvars {
		p.consts[v] = cj.Consts[i]
	}
	for _, v := range append(slices.Clone(j.Invars), j.Constvars...) {
		if err := checkDType(v.Aval.DType); err != nil {
			return nil, err
		}
	}
	for _, g := range fusion.Plan(j) {
		// A product and its epilogue run as separate kernels here.
		for _, part := range g.Split() {
			if err := l.lowerGroup(p, part); err != nil {
				return nil, err
			}
		}
	}
	for _, a := range j.Outvars {
		p.outvars = append(p.outvars, p.array(a))
	}
	return p, nil
}

// array returns a as a variable, materialising a literal as a constant.
func (p *program) array(a ir.Atom) *ir.Var {
	switch a := a.(type) {
	case *ir.Var:
		return a
	case ir.Literal:
		v := ir.NewVar(ir.Aval{DType: a.Aval.DType})
		p.consts[v] = ir.ScalarBuffer(a.Aval.DType, a.Value)
		return v
	}
	return nil
}

// arrays applies array to each atom.
func (p *program) arrays(as []ir.Atom) []*ir.Var {
	out := make([]*ir.Var, len(as))
	for i, a := range as {
		out[i] = p.array(a)
	}
	return out
}

// lowerGroup adds the steps (and kernels) of one fusion group to p.
func (l *lowerer) lowerGroup(p *program, g *fusion.Group) error {
	if g.Kind != fusion.Other {
		if len(g.Outputs) == 0 {
			return nil // dead code
		}
		if g.Kind == fusion.Reduction {
			return l.lowerReduction(p, g)
		}
		k, grid, err := emitFused(l.newKernelName(), g)
		if err != nil {
			return err
		}
		return l.add(p, k, grid, append(slices.Clone(g.Inputs), g.Outputs...), g.Outputs)
	}
	e := g.Eqns[0]
	switch e.Prim {
	case ir.Reshape, ir.Squeeze:
		p.steps = append(p.steps, aliasStep{dst: e.Out[0], src: p.array(e.In[0])})
		return nil
	case ir.BroadcastInDim, ir.Transpose, ir.Slice, ir.Pad, ir.Concatenate:
		k, grid, err := emitIndex(l.newKernelName(), e)
		if err != nil {
			return err
		}
		var args []*ir.Var
		for _, a := range e.In {
			if v, ok := a.(*ir.Var); ok {
				args = append(args, v)
			}
		}
		return l.add(p, k, grid, append(args, e.Out[0]), e.Out)
	case ir.DotGeneral:
		return l.lowerDot(p, e)
	case ir.Cond, ir.While, ir.Scan, ir.Jit:
		return l.lowerControl(p, e)
	case ir.DebugPrint:
		p.steps = append(p.steps, hostStep{eqn: e, args: p.arrays(e.In)})
		return nil
	}
	return eqnError(e, fmt.Errorf("primitive %s is not supported by the gpu backend", e.Prim))
}

// lowerReduction emits a reduction group: one kernel, or two when the
// reduction is split (partials over several blocks per output, then a
// reduction of the partials).
func (l *lowerer) lowerReduction(p *program, g *fusion.Group) error {
	split := reduceSplit(g)
	if split == 1 {
		k, grid, err := emitReduce(l.newKernelName(), g, 1)
		if err != nil {
			return err
		}
		return l.add(p, k, grid, append(slices.Clone(g.Inputs), g.Outputs...), g.Outputs)
	}
	e := g.Eqns[len(g.Eqns)-1]
	out := e.Out[0]
	partial := ir.NewVar(ir.Aval{Shape: []int{out.Aval.Size(), split}, DType: out.Aval.DType})
	first := *g
	first.Eqns = append(slices.Clone(g.Eqns[:len(g.Eqns)-1]), &ir.Eqn{Prim: e.Prim, Params: e.Params, In: e.In, Out: []*ir.Var{partial}, Source: e.Source})
	first.Outputs = slices.Clone(g.Outputs)
	first.Outputs[slices.Index(g.Outputs, out)] = partial
	k, grid, err := emitReduce(l.newKernelName(), &first, split)
	if err != nil {
		return err
	}
	if err := l.add(p, k, grid, append(slices.Clone(first.Inputs), first.Outputs...), first.Outputs); err != nil {
		return err
	}
	second := &fusion.Group{Kind: fusion.Reduction, Shape: partial.Aval.Shape, Inputs: []*ir.Var{partial}, Outputs: []*ir.Var{out},
		Eqns: []*ir.Eqn{{Prim: e.Prim, Params: ir.Params{"axes": []int{1}, "out_sharding": nil}, In: []ir.Atom{partial}, Out: []*ir.Var{out}, Source: e.Source}}}
	k, grid, err = emitReduce(l.newKernelName(), second, 1)
	if err != nil {
		return err
	}
	return l.add(p, k, grid, []*ir.Var{partial, out}, []*ir.Var{out})
}

// add appends a kernel and its launch; outs become buffers p owns.
func (l *lowerer) add(p *program, k *kernel, grid int, args, outs []*ir.Var) error {
	l.kernels = append(l.kernels, k)
	p.steps = append(p.steps, launchStep{kernel: k.name, grid: grid, args: args})
	p.owned = append(p.owned, outs...)
	return nil
}
