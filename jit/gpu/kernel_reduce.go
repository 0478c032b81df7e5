package gpu

import (
	"fmt"
	"math"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/fusion"
)

// emitReduce writes the kernel of a reduction group (an elementwise chain
// ending in reduce_sum/max/min): one block per output element; each of its
// threads strides over the reduced elements, evaluating the chain at each,
// then the block combines the partial results in shared memory. Parameters
// are g.Inputs then g.Outputs; chain results the group exports are stored as
// they are computed (each element is visited by exactly one thread). The grid
// is the output size.
//
// With split > 1, each output element gets split blocks, block b handling
// the reduced elements congruent to b mod split (in runs of blockSize), and
// the reduce result is the partial array [outputs, split]; a second
// reduction over its last axis finishes (see lowerReduction).
func emitReduce(name string, g *fusion.Group, split int) (*kernel, int, error) {
	e := g.Eqns[len(g.Eqns)-1]
	chain := g.Eqns[:len(g.Eqns)-1]
	axes, err := intsParam(e, "axes")
	if err != nil {
		return nil, 0, err
	}
	x := ir.Aval{Shape: g.Shape, DType: e.In[0].Type().DType}
	t := x.DType
	if err := checkDType(t); err != nil {
		return nil, 0, err
	}
	// Bools reduce as 0/1 int32 (max is any, min is all).
	rt, ident := t, reduceIdentity(e.Prim, t)
	if t == ir.Bool {
		if e.Prim == ir.ReduceSum {
			return nil, 0, eqnError(e, fmt.Errorf("reduce_sum is not defined on bool"))
		}
		rt, ident = ir.Int32, float64(boolInt(e.Prim == ir.ReduceMin))
	}
	in := x.Shape
	strides := make([]int, len(in))
	s := 1
	for d := len(in) - 1; d >= 0; d-- {
		strides[d] = s
		s *= in[d]
	}
	var keptShape, keptStride, redShape, redStride []int
	for d := range in {
		if slices.Contains(axes, d) {
			redShape, redStride = append(redShape, in[d]), append(redStride, strides[d])
		} else {
			keptShape, keptStride = append(keptShape, in[d]), append(keptStride, strides[d])
		}
	}
	nOut, nRed := ir.NumElements(keptShape), ir.NumElements(redShape)
	prim := map[string]string{ir.ReduceSum: ir.Add, ir.ReduceMax: ir.Max, ir.ReduceMin: ir.Min}[e.Prim]
	k := newKernel(name, len(g.Inputs)+len(g.Outputs))
	size := rt.ItemSize()
	k.shared = blockSize * size
	tid, blk := k.reg("%r"), k.reg("%r")
	k.op("mov.u32 %s, %%tid.x", tid)
	k.op("mov.u32 %s, %%ctaid.x", blk)
	outParam := map[*ir.Var]int{}
	for i, v := range g.Outputs {
		outParam[v] = len(g.Inputs) + i
	}
	out, first := blk, tid // output element, first reduced element
	if split > 1 {
		out, first = k.reg("%r"), k.reg("%r")
		chunk := k.reg("%r")
		k.op("div.u32 %s, %s, %d", out, blk, split)
		k.op("rem.u32 %s, %s, %d", chunk, blk, split)
		k.op("mad.lo.s32 %s, %s, %d, %s", first, chunk, blockSize, tid)
	}
	base := k.strided(k.coords(out, keptShape), keptStride)
	acc := k.reg(regClass(rt))
	k.move(acc, k.constant(rt, ident))
	r := k.reg("%r")
	k.op("mov.u32 %s, %s", r, first)
	loop, end := k.label(), k.label()
	k.mark(loop)
	k.op("@%s bra %s", k.setp("ge", ".s32", r, fmt.Sprint(nRed)), end)
	at := k.reg("%r")
	k.op("add.s32 %s, %s, %s", at, base, k.strided(k.coords(r, redShape), redStride))
	vals, err := k.loadInputs(g.Inputs, at, g.Shape)
	if err != nil {
		return nil, 0, err
	}
	if err := k.evalChain(chain, g.Shape, at, vals); err != nil {
		return nil, 0, err
	}
	for _, c := range chain {
		if i, ok := outParam[c.Out[0]]; ok {
			k.store(k.param(i), at, vals[c.Out[0]])
		}
	}
	var operand value
	switch a := e.In[0].(type) {
	case *ir.Var:
		operand = vals[a]
	case ir.Literal:
		operand = k.constant(t, a.Value)
	}
	v, err := k.binary(prim, value{acc, rt}, k.convert(operand, rt))
	if err != nil {
		return nil, 0, eqnError(e, err)
	}
	k.move(acc, v)
	k.op("add.s32 %s, %s, %d", r, r, blockSize*max(split, 1))
	k.op("bra %s", loop)
	k.mark(end)
	// Tree reduction in shared memory.
	sm, slot := k.reg("%r"), k.reg("%r")
	k.op("mov.u32 %s, %s_smem", sm, name)
	k.op("mad.lo.s32 %s, %s, %d, %s", slot, tid, size, sm)
	k.op("st.shared%s [%s], %s", memType(rt), slot, acc)
	k.op("bar.sync 0")
	for half := blockSize / 2; half >= 1; half /= 2 {
		skip := k.label()
		k.op("@%s bra %s", k.setp("ge", ".s32", tid, fmt.Sprint(half)), skip)
		a, b := k.reg(regClass(rt)), k.reg(regClass(rt))
		k.op("ld.shared%s %s, [%s]", memType(rt), a, slot)
		k.op("ld.shared%s %s, [%s+%d]", memType(rt), b, slot, half*size)
		v, _ := k.binary(prim, value{a, rt}, value{b, rt}) // same op as above: cannot fail
		k.op("st.shared%s [%s], %s", memType(rt), slot, v.reg)
		k.mark(skip)
		k.op("bar.sync 0")
	}
	done := k.label()
	k.op("@%s bra %s", k.setp("ne", ".s32", tid, "0"), done)
	if i, ok := outParam[e.Out[0]]; ok {
		res := k.reg(regClass(rt))
		k.op("ld.shared%s %s, [%s]", memType(rt), res, sm)
		k.store(k.param(i), blk, k.convert(value{res, rt}, t))
	}
	k.mark(done)
	return k, max(nOut, 1) * max(split, 1), nil
}

// reduceSplit is how many blocks share each output element of a reduction:
// 1 (one block per output) unless there are few outputs and many reduced
// elements, which a single block per output would leave most SMs idle for.
func reduceSplit(g *fusion.Group) int {
	e := g.Eqns[len(g.Eqns)-1]
	axes, _ := e.Params["axes"].([]int)
	nRed := 1
	for _, a := range axes {
		if a >= 0 && a < len(g.Shape) {
			nRed *= g.Shape[a]
		}
	}
	nOut := ir.NumElements(g.Shape) / max(nRed, 1)
	if e.In[0].Type().DType == ir.Bool || nRed < 1<<15 || nOut > 256 || !slices.Contains(g.Outputs, e.Out[0]) {
		return 1
	}
	return min(1024, (nRed+blockSize*8-1)/(blockSize*8))
}

// strided returns sum c[d]*stride[d] (0 for no coordinates).
func (k *kernel) strided(c []string, stride []int) string {
	acc := k.reg("%r")
	k.op("mov.u32 %s, 0", acc)
	for d := range c {
		next := k.reg("%r")
		k.op("mad.lo.s32 %s, %s, %d, %s", next, c[d], stride[d], acc)
		acc = next
	}
	return acc
}

// reduceIdentity is the starting value of a reduction.
func reduceIdentity(prim string, t ir.DType) float64 {
	switch {
	case prim == ir.ReduceSum:
		return 0
	case t.IsFloat() && prim == ir.ReduceMax:
		return math.Inf(-1)
	case t.IsFloat():
		return math.Inf(1)
	case prim == ir.ReduceMax && t == ir.Int32:
		return math.MinInt32
	case t == ir.Int32:
		return math.MaxInt32
	case prim == ir.ReduceMax:
		return math.MinInt64
	}
	return math.MaxInt64
}
