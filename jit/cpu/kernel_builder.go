package cpu

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
	"github.com/jitlint/jitlint/jit/ir/fusion"
)

// errUnfusable marks an equation the fused kernels do not implement; its
// group is then evaluated equation by equation.
var errUnfusable = errors.New("not fusable")

// kbuilder assigns registers and builds a kernel's ops.
type kbuilder struct {
	c       *compiler
	k       *kernel
	where   map[*ir.Var]loc
	lits    map[litKey]loc
	isOut   map[*ir.Var]bool
	lastUse map[*ir.Var]int
	free    [nClasses][]int
	// lastMul is the product computed by the last op, if that op was an
	// f32 or f64 mul (a candidate for multiplyAdd).
	lastMul *product
	// rowLen is an epilogue's row length (0 for other kernels).
	rowLen int
}

// product records a mul op: its result and operand registers.
type product struct {
	v    *ir.Var
	a, b loc
}

// litKey identifies a literal (by bits, so 0 and -0 differ).
type litKey struct {
	bits uint64
	dt   ir.DType
}

// buildKernel fuses chain (elementwise equations over g.Shape) and, when
// red is not nil, the reduction that ends it. outs are the chain values the
// kernel must store. It returns errUnfusable when something is not
// implemented by the fused kernels.
func (c *compiler) buildKernel(g *fusion.Group, chain []*ir.Eqn, red *ir.Eqn, outs []*ir.Var) (*kernel, error) {
	return c.newKbuilder(g, 0).build(g, chain, red, outs)
}

// buildEpilogue fuses a product's epilogue (fusion.Group.Epilogue), which
// runs on row segments of the product's rows of n elements: inputs that
// the epilogue's broadcasts read in place are views at the segment's
// offset modulo their size.
func (c *compiler) buildEpilogue(g *fusion.Group, n int) (*kernel, error) {
	return c.newKbuilder(g, n).build(g, g.Eqns, nil, g.Outputs)
}

// newKbuilder returns a builder of a kernel over g.Shape; rowLen is the
// row length of an epilogue's segments (0 for other kernels).
func (c *compiler) newKbuilder(g *fusion.Group, rowLen int) *kbuilder {
	return &kbuilder{
		c: c, k: &kernel{n: ir.NumElements(g.Shape)}, rowLen: rowLen,
		where: map[*ir.Var]loc{}, lits: map[litKey]loc{}, isOut: map[*ir.Var]bool{}, lastUse: map[*ir.Var]int{},
	}
}

// build builds the kernel (see buildKernel).
func (b *kbuilder) build(g *fusion.Group, chain []*ir.Eqn, red *ir.Eqn, outs []*ir.Var) (*kernel, error) {
	c := b.c
	for _, v := range outs {
		b.isOut[v] = true
	}
	for i, e := range chain {
		for _, a := range e.In {
			if v, ok := a.(*ir.Var); ok {
				b.lastUse[v] = i
			}
		}
	}
	if red != nil {
		if v, ok := red.In[0].(*ir.Var); ok {
			b.lastUse[v] = len(chain)
		}
	}
	for _, v := range g.Inputs {
		if err := b.input(v); err != nil {
			if errors.Is(err, errUnfusable) {
				return nil, err
			}
			e := g.Eqns[0]
			return nil, fmt.Errorf("in the group of equations starting with %s: %w%s", e.Prim, err, at(e))
		}
	}
	for i, e := range chain {
		if err := b.eqn(i, e); err != nil {
			return nil, err
		}
	}
	for _, v := range outs {
		b.k.outSlots = append(b.k.outSlots, c.slots[v])
		b.k.outAvals = append(b.k.outAvals, v.Aval)
	}
	if red != nil {
		r, err := b.reduction(red)
		if err != nil {
			return nil, err
		}
		b.k.red = r
		b.k.cost++
	}
	return b.k, nil
}

// newReg returns a fresh register of class c.
func (b *kbuilder) newReg(c class) loc {
	l := loc{c: c, reg: b.k.nreg[c]}
	b.k.nreg[c]++
	return l
}

// temp returns a free owned register of class c.
func (b *kbuilder) temp(c class) loc {
	if n := len(b.free[c]); n > 0 {
		r := b.free[c][n-1]
		b.free[c] = b.free[c][:n-1]
		return loc{c: c, reg: r}
	}
	l := b.newReg(c)
	b.k.owned = append(b.k.owned, l)
	return l
}

// input registers a group input: a scalar register filled once per chunk
// for one-element values, a view register otherwise.
func (b *kbuilder) input(v *ir.Var) error {
	if !eval.ValidDType(v.Aval.DType) {
		return errUnfusable
	}
	r, err := b.c.ref(v)
	if err != nil {
		return err
	}
	l := b.newReg(classOf(v.Aval.DType))
	switch size := v.Aval.Size(); {
	case size == 1:
		l.scalar = true
		b.k.owned = append(b.k.owned, l)
		b.k.scalars = append(b.k.scalars, binding{loc: l, src: r})
	case size == b.k.n:
		b.k.views = append(b.k.views, binding{loc: l, src: r})
	case b.rowLen > 0 && size%b.rowLen == 0:
		// Read in place by a broadcast of an epilogue (see eqn).
		b.k.views = append(b.k.views, binding{loc: l, src: r, period: size})
	default:
		return errUnfusable
	}
	b.where[v] = l
	return nil
}

// operand returns an operand's register (literals get a scalar register).
func (b *kbuilder) operand(a ir.Atom) (loc, error) {
	switch a := a.(type) {
	case *ir.Var:
		l, ok := b.where[a]
		if !ok {
			return loc{}, errUnfusable
		}
		return l, nil
	case ir.Literal:
		key := litKey{bits: math.Float64bits(a.Value), dt: a.Aval.DType}
		if l, ok := b.lits[key]; ok {
			return l, nil
		}
		r, err := b.c.ref(a)
		if err != nil {
			return loc{}, err
		}
		l := b.newReg(classOf(a.Aval.DType))
		l.scalar = true
		b.k.owned = append(b.k.owned, l)
		b.k.scalars = append(b.k.scalars, binding{loc: l, src: r})
		b.lits[key] = l
		return l, nil
	}
	return loc{}, errUnfusable
}

// eqn compiles chain equation i.
func (b *kbuilder) eqn(i int, e *ir.Eqn) error {
	if len(e.Out) != 1 || !eval.ValidDType(e.Out[0].Aval.DType) {
		return errUnfusable
	}
	out := e.Out[0]
	ins := make([]loc, len(e.In))
	dts := make([]ir.DType, len(e.In))
	for k, a := range e.In {
		l, err := b.operand(a)
		if err != nil {
			return err
		}
		ins[k], dts[k] = l, a.Type().DType
	}
	// A broadcast of a scalar that is not stored shares the scalar's
	// register; an epilogue's broadcast of a trailing part of the shape
	// shares the view of its operand, read at the segment's offset modulo
	// the operand's size (the operand's shape differs from the kernel's,
	// so only broadcasts can read it).
	if e.Prim == ir.BroadcastInDim && !b.isOut[out] && len(ins) == 1 {
		if ins[0].scalar || fusion.EpilogueBroadcast(e) && b.periodic(ins[0]) {
			b.where[out] = ins[0]
			return nil
		}
		if b.periodic(ins[0]) {
			return errUnfusable // a broadcast its period does not describe
		}
	}

	// Free the registers of operands that die here, so the result may
	// reuse one (every op reads element i before writing element i).
	for _, a := range e.In {
		if v, ok := a.(*ir.Var); ok && b.lastUse[v] == i {
			b.release(v)
		}
	}
	var dst loc
	if b.isOut[out] {
		dst = b.newReg(classOf(out.Aval.DType))
		b.k.views = append(b.k.views, binding{loc: dst, src: ref{slot: b.c.slots[out]}})
	} else {
		dst = b.temp(classOf(out.Aval.DType))
	}
	o, cost, err := makeOp(e, ins, dts, dst)
	if err != nil {
		return err
	}
	if fo := b.multiplyAdd(i, e, ins, dst); fo != nil {
		b.k.ops[len(b.k.ops)-1] = fo // replaces the product's op
	} else {
		b.k.ops = append(b.k.ops, o)
	}
	b.lastMul = nil
	if e.Prim == ir.Mul && (out.Aval.DType == ir.Float32 || out.Aval.DType == ir.Float64) {
		b.lastMul = &product{v: out, a: ins[0], b: ins[1]}
	}
	b.k.cost += cost
	b.where[out] = dst
	if _, used := b.lastUse[out]; !used && !b.isOut[out] {
		b.release(out)
	}
	return nil
}

// release returns v's register to the free list if v is a temporary.
func (b *kbuilder) release(v *ir.Var) {
	l, ok := b.where[v]
	if !ok || b.isOut[v] || l.scalar || slices.ContainsFunc(b.k.views, func(x binding) bool { return x.loc == l }) {
		return
	}
	if !slices.Contains(b.free[l.c], l.reg) {
		b.free[l.c] = append(b.free[l.c], l.reg)
	}
}

// multiplyAdd fuses "t = a*b; d = t ± c" (or c - t) into one loop when t is
// the previous op's temporary and dies here, returning nil otherwise. The
// product is rounded to the dtype before the addition, as two separate ops
// would round it (an explicit conversion keeps Go from contracting to FMA).
func (b *kbuilder) multiplyAdd(i int, e *ir.Eqn, ins []loc, dst loc) op {
	p := b.lastMul
	if p == nil || (e.Prim != ir.Add && e.Prim != ir.Sub) || len(e.In) != 2 || b.isOut[p.v] || b.lastUse[p.v] != i ||
		isVar(e.In[0], p.v) && isVar(e.In[1], p.v) {
		return nil
	}
	k, c := mulAddKind(0), ins[1]
	switch {
	case isVar(e.In[0], p.v) && e.Prim == ir.Sub:
		k = mulSub
	case isVar(e.In[1], p.v):
		c = ins[0]
		if e.Prim == ir.Sub {
			k = subMul
		}
	}
	return fusedMulAdd(k, p.a, p.b, c, dst)
}

// isVar reports whether a is the variable v.
func isVar(a ir.Atom, v *ir.Var) bool {
	x, ok := a.(*ir.Var)
	return ok && x == v
}

// periodic reports whether l is a view read at offsets modulo its size.
func (b *kbuilder) periodic(l loc) bool {
	return slices.ContainsFunc(b.k.views, func(x binding) bool { return x.loc == l && x.period > 0 })
}
