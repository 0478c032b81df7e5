package cpu

import (
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
	"github.com/jitlint/jitlint/jit/ir/fusion"
)

// compiler assigns slots and builds a program's steps.
type compiler struct {
	pl    *planned
	p     *program
	slots map[*ir.Var]int
}

// compile builds the program of a plan (and of its nested plans).
func compile(pl *planned) (*program, error) {
	c := &compiler{pl: pl, p: &program{maxIdle: maxIdleStates * runtime.GOMAXPROCS(0)}, slots: map[*ir.Var]int{}}
	j := pl.j
	for _, v := range j.Constvars {
		c.p.constSlots = append(c.p.constSlots, c.slot(v))
	}
	for i, b := range pl.consts {
		if eval.CheckBuffer(b) != nil || !b.Aval().TypeMatch(j.Constvars[i].Aval) {
			return nil, fmt.Errorf("constant %d does not match its constvar of type %s", i, j.Constvars[i].Aval)
		}
	}
	c.p.consts = pl.consts
	for _, v := range j.Invars {
		c.p.inSlots = append(c.p.inSlots, c.slot(v))
		c.p.inAvals = append(c.p.inAvals, v.Aval)
	}
	for _, e := range j.Eqns {
		for _, v := range e.Out {
			c.slot(v)
		}
	}
	c.p.temp = make([]bool, len(c.slots))
	for _, e := range j.Eqns {
		for _, v := range e.Out {
			c.p.temp[c.slots[v]] = true
		}
	}
	for i, a := range j.Outvars {
		r, err := c.ref(a)
		if err != nil {
			return nil, fmt.Errorf("output %d: %w", i, err)
		}
		if r.slot >= 0 {
			c.p.temp[r.slot] = false
		}
		c.p.outs = append(c.p.outs, r)
	}
	c.p.nslots = len(c.slots)
	for _, g := range pl.groups {
		if err := c.group(g); err != nil {
			return nil, err
		}
	}
	c.markFresh()
	return c.p, nil
}

// markFresh records which outputs fused kernels write into fresh buffers.
func (c *compiler) markFresh() {
	byKernel := map[int]bool{}
	for _, s := range c.p.steps {
		if k, ok := s.(*kernel); ok {
			for _, o := range k.outSlots {
				byKernel[o] = true
			}
			if k.red != nil {
				byKernel[k.red.slot] = true
			}
		}
	}
	c.p.fresh = make([]bool, len(c.p.outs))
	for i, r := range c.p.outs {
		c.p.fresh[i] = r.slot >= 0 && byKernel[r.slot]
	}
}

// slot returns v's slot, assigning one on first use.
func (c *compiler) slot(v *ir.Var) int {
	s, ok := c.slots[v]
	if !ok {
		s = len(c.slots)
		c.slots[v] = s
	}
	return s
}

// ref resolves an operand.
func (c *compiler) ref(a ir.Atom) (ref, error) {
	switch a := a.(type) {
	case *ir.Var:
		s, ok := c.slots[a]
		if !ok || a == nil {
			return ref{}, fmt.Errorf("variable of type %s used but never defined", a.Type())
		}
		return ref{slot: s}, nil
	case ir.Literal:
		if !eval.ValidDType(a.Aval.DType) || len(a.Aval.Shape) != 0 {
			return ref{}, fmt.Errorf("literal %v has invalid type %s (want a scalar of a valid dtype)", a.Value, a.Aval)
		}
		return ref{slot: -1, lit: eval.LiteralBuffer(a)}, nil
	}
	return ref{}, fmt.Errorf("operand of unknown kind %T", a)
}

// refs resolves an equation's operands.
func (c *compiler) refs(e *ir.Eqn) ([]ref, error) {
	out := make([]ref, len(e.In))
	for i, a := range e.In {
		r, err := c.ref(a)
		if err != nil {
			return nil, fmt.Errorf("%s operand %d: %w%s", e.Prim, i, err, at(e))
		}
		out[i] = r
	}
	return out, nil
}

// outSlots returns the slots of an equation's results.
func (c *compiler) outSlots(e *ir.Eqn) []int {
	out := make([]int, len(e.Out))
	for i, v := range e.Out {
		out[i] = c.slots[v]
	}
	return out
}

// add appends a step; mk receives the step's scratch index.
func (c *compiler) add(mk func(self int) step) {
	c.p.steps = append(c.p.steps, mk(c.scratchIndex()))
}

// scratchIndex allocates an index into a state's scratch, for a step or
// for a kernel that a step runs (a product's epilogue).
func (c *compiler) scratchIndex() int {
	c.p.nscratch++
	return c.p.nscratch - 1
}

// group compiles one fusion group into steps: one fused kernel when the
// kernels implement every equation, else one evaluated step per equation.
func (c *compiler) group(g *fusion.Group) error {
	switch g.Kind {
	case fusion.Contraction:
		return c.contraction(g)
	case fusion.Elementwise:
		if ok, err := c.fused(g, g.Eqns, nil, g.Outputs); ok || err != nil {
			return err
		}
	case fusion.Reduction:
		red := g.Eqns[len(g.Eqns)-1]
		chain := g.Eqns[:len(g.Eqns)-1]
		outs := slices.DeleteFunc(slices.Clone(g.Outputs), func(v *ir.Var) bool { return v == red.Out[0] })
		if nativeReduce(red) {
			if ok, err := c.fused(g, chain, red, outs); ok || err != nil {
				return err
			}
		} else if len(chain) > 0 {
			// Fuse the producers, store the reduced operand, evaluate the reduction.
			if v, ok := red.In[0].(*ir.Var); ok && !slices.Contains(outs, v) && slices.ContainsFunc(chain, func(e *ir.Eqn) bool { return slices.Contains(e.Out, v) }) {
				outs = append(outs, v)
			}
			ok, err := c.fused(g, chain, nil, outs)
			if err != nil {
				return err
			}
			if ok {
				c.pl.evalReduce[g] = true
				return c.eqn(red)
			}
		}
	}
	for _, e := range g.Eqns {
		if err := c.eqn(e); err != nil {
			return err
		}
	}
	return nil
}

// fused adds a kernel step for chain (and red) if the kernels implement it.
func (c *compiler) fused(g *fusion.Group, chain []*ir.Eqn, red *ir.Eqn, outs []*ir.Var) (bool, error) {
	k, err := c.buildKernel(g, chain, red, outs)
	if errors.Is(err, errUnfusable) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	c.pl.fused[g] = true
	k.eqns = len(chain)
	if red != nil {
		k.eqns++
	}
	c.add(func(self int) step { k.self = self; return k })
	return true, nil
}

// eqn compiles one unfused equation.
func (c *compiler) eqn(e *ir.Eqn) error {
	in, err := c.refs(e)
	if err != nil {
		return err
	}
	out := c.outSlots(e)
	if subs, ok := c.pl.nested[e]; ok {
		progs := make([]*program, len(subs))
		for i, sp := range subs {
			if progs[i], err = compile(sp); err != nil {
				return fmt.Errorf("in the body of %s: %w%s", e.Prim, err, at(e))
			}
		}
		s, err := controlStep(e, in, out, progs)
		if err != nil {
			return err
		}
		c.add(func(self int) step { s.self = self; return s })
		return nil
	}
	if e.Prim == ir.DotGeneral {
		if s, ok := c.dotStep(e, in); ok {
			c.add(func(self int) step { s.self = self; return s })
			return nil
		}
	}
	c.add(func(self int) step { return &evalStep{eqn: e, in: in, out: out, self: self} })
	return nil
}

// contraction compiles a product with its prologue and epilogue: one
// dotStep whose packing reads the prologue converts' operands in place
// (they store alike) and which runs the epilogue's fused kernel on each
// finished block of the product, or, when the kernels cannot take the
// epilogue, a convert's result is read by more than the product, or the
// product is not a float one, the parts of g.Split one after the other.
func (c *compiler) contraction(g *fusion.Group) error {
	dot, epi := g.Product(), g.Epilogue()
	in, err := c.refs(dot)
	if err != nil {
		return err
	}
	inPlace := true
	for _, e := range g.Prologue() {
		if slices.Contains(g.Outputs, e.Out[0]) || epi != nil && slices.Contains(epi.Inputs, e.Out[0]) {
			inPlace = false
			break
		}
		src, err := c.ref(e.In[0])
		if err != nil {
			return err
		}
		for i, a := range dot.In {
			if isVar(a, e.Out[0]) {
				in[i] = src
			}
		}
	}
	if s, ok := c.dotStep(dot, in); ok && inPlace {
		if epi == nil {
			c.pl.fused[g] = len(g.Prologue()) > 0
			c.add(func(self int) step { s.self = self; return s })
			return nil
		}
		_, n := s.prod.dims()
		k, err := c.buildEpilogue(epi, n)
		if err != nil && !errors.Is(err, errUnfusable) {
			return err
		}
		if err == nil {
			k.eqns, k.self = len(epi.Eqns), c.scratchIndex()
			s.epi = k
			c.pl.fused[g] = true
			c.add(func(self int) step { s.self = self; return s })
			return nil
		}
	}
	for _, p := range g.Split() {
		if err := c.group(p); err != nil {
			return err
		}
	}
	return nil
}

// dotStep compiles a float dot_general into a product step (recording how
// it runs for the listing); it reports false for the ones the evaluator
// runs.
func (c *compiler) dotStep(e *ir.Eqn, in []ref) (*dotStep, bool) {
	s, ok := newDotStep(e, in, c.slots[e.Out[0]])
	if ok {
		c.pl.products[e] = s.prod.describe()
	}
	return s, ok
}
