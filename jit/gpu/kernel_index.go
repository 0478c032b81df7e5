package gpu

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// Index kernels: one thread per output element computes its coordinates
// (div/rem by the static dimensions) and from them which input element, if
// any, it copies. They implement broadcast_in_dim, transpose, slice, pad,
// concatenate. Parameters are the array operands, then the output.

// coords splits a flat index into coordinates of shape (unsigned div/rem by
// constants, last dimension fastest).
func (k *kernel) coords(idx string, shape []int) []string {
	c := make([]string, len(shape))
	rest := idx
	for d := len(shape) - 1; d >= 0; d-- {
		if d == 0 {
			c[d] = rest
			break
		}
		r, q := k.reg("%r"), k.reg("%r")
		k.op("rem.u32 %s, %s, %d", r, rest, shape[d])
		k.op("div.u32 %s, %s, %d", q, rest, shape[d])
		c[d], rest = r, q
	}
	return c
}

// linear returns the row-major flat index of coordinates c in shape; a ""
// coordinate is 0.
func (k *kernel) linear(c []string, shape []int) string {
	acc := k.reg("%r")
	k.op("mov.u32 %s, 0", acc)
	for d := range shape {
		next := k.reg("%r")
		k.op("mul.lo.s32 %s, %s, %d", next, acc, shape[d])
		if c[d] != "" {
			k.op("add.s32 %s, %s, %s", next, next, c[d])
		}
		acc = next
	}
	return acc
}

// move copies v into register dst of the same class.
func (k *kernel) move(dst string, v value) {
	if v.t == ir.Bool {
		k.op("mov.pred %s, %s", dst, v.reg)
		return
	}
	k.op("mov%s %s, %s", movType(v.t), dst, v.reg)
}

// indexKernel emits the common prologue of an index kernel for output aval
// out: it returns the kernel, the output coordinates, the thread index and
// the exit label to mark before ret.
func indexKernel(name string, nparams int, out ir.Aval) (*kernel, []string, string, string) {
	k := newKernel(name, nparams)
	idx := k.threadIndex()
	done := k.exitUnless(idx, out.Size())
	return k, k.coords(idx, out.Shape), idx, done
}

// emitIndex writes the kernel of one index primitive; its parameters are the
// equation's variable operands in order (literal operands, such as a pad
// value, become immediates), then the output.
func emitIndex(name string, e *ir.Eqn) (*kernel, int, error) {
	out := e.Out[0].Aval
	if err := checkDType(out.DType); err != nil {
		return nil, 0, err
	}
	var arrays []*ir.Var
	for _, a := range e.In {
		if v, ok := a.(*ir.Var); ok {
			arrays = append(arrays, v)
		}
	}
	k, oc, idx, done := indexKernel(name, len(arrays)+1, out)
	param := map[*ir.Var]int{}
	for i, v := range arrays {
		param[v] = i
	}
	// operand i's value at flat index at (a literal ignores at).
	read := func(i int, at string) value {
		switch a := e.In[i].(type) {
		case *ir.Var:
			return k.load(k.param(param[a]), at, a.Aval.DType)
		case ir.Literal:
			return k.constant(a.Aval.DType, a.Value)
		}
		return value{}
	}
	inShape := func(i int) []int { return e.In[i].Type().Shape }
	var res value
	switch e.Prim {
	case ir.BroadcastInDim:
		dims, err := intsParam(e, "broadcast_dimensions")
		if err != nil {
			return nil, 0, err
		}
		in := inShape(0)
		c := make([]string, len(in))
		for j, d := range dims {
			if in[j] != 1 {
				c[j] = oc[d]
			}
		}
		res = read(0, k.linear(c, in))
	case ir.Transpose:
		perm, err := intsParam(e, "permutation")
		if err != nil {
			return nil, 0, err
		}
		c := make([]string, len(perm))
		for d, p := range perm {
			c[p] = oc[d]
		}
		res = read(0, k.linear(c, inShape(0)))
	case ir.Slice:
		start, err := intsParam(e, "start_indices")
		if err != nil {
			return nil, 0, err
		}
		strides, _ := e.Params["strides"].([]int)
		c := make([]string, len(start))
		for j := range start {
			s := 1
			if strides != nil {
				s = strides[j]
			}
			r := k.reg("%r")
			k.op("mad.lo.s32 %s, %s, %d, %d", r, oc[j], s, start[j])
			c[j] = r
		}
		res = read(0, k.linear(c, inShape(0)))
	case ir.Pad:
		var err error
		if res, err = k.padValue(e, oc, read); err != nil {
			return nil, 0, err
		}
	case ir.Concatenate:
		var err error
		if res, err = k.concatValue(e, oc, read); err != nil {
			return nil, 0, err
		}
	default:
		return nil, 0, eqnError(e, fmt.Errorf("not an index primitive"))
	}
	k.store(k.param(len(arrays)), idx, res)
	k.mark(done)
	return k, gridFor(out.Size()), nil
}

// padValue computes pad's element: the operand's element when the output
// coordinate maps onto one (lo offset, interior spacing), else the padding
// value.
func (k *kernel) padValue(e *ir.Eqn, oc []string, read func(int, string) value) (value, error) {
	cfg, ok := e.Params["padding_config"].([][3]int)
	in := e.In[0].Type().Shape
	if !ok || len(cfg) != len(in) {
		return value{}, eqnError(e, fmt.Errorf("padding_config is %T, want [][3]int of rank %d", e.Params["padding_config"], len(in)))
	}
	valid := k.reg("%p")
	one := k.reg("%r")
	k.op("mov.u32 %s, 1", one)
	k.op("setp.ne.u32 %s, %s, 0", valid, one)
	c := make([]string, len(in))
	for j, pc := range cfg {
		t, q, r := k.reg("%r"), k.reg("%r"), k.reg("%r")
		k.op("sub.s32 %s, %s, %d", t, oc[j], pc[0])
		k.op("div.s32 %s, %s, %d", q, t, pc[2]+1)
		k.op("rem.s32 %s, %s, %d", r, t, pc[2]+1)
		for _, bad := range []string{
			k.setp("lt", ".s32", t, "0"), k.setp("ne", ".s32", r, "0"), k.setp("ge", ".s32", q, fmt.Sprint(in[j])),
		} {
			k.op("and.pred %s, %s, %s", valid, valid, k.notPred(bad))
		}
		c[j] = q
	}
	t := e.Out[0].Aval.DType
	res := k.reg(regClass(t))
	padL, joinL := k.label(), k.label()
	k.op("@!%s bra %s", valid, padL)
	k.move(res, read(0, k.linear(c, in)))
	k.op("bra %s", joinL)
	k.mark(padL)
	zero := k.reg("%r")
	k.op("mov.u32 %s, 0", zero)
	k.move(res, read(1, zero))
	k.mark(joinL)
	return value{res, t}, nil
}

// concatValue computes concatenate's element: the operand whose range along
// the dimension holds the output coordinate.
func (k *kernel) concatValue(e *ir.Eqn, oc []string, read func(int, string) value) (value, error) {
	dim, ok := e.Params["dimension"].(int)
	if !ok || dim < 0 || dim >= len(oc) {
		return value{}, eqnError(e, fmt.Errorf("bad dimension parameter %v", e.Params["dimension"]))
	}
	t := e.Out[0].Aval.DType
	res := k.reg(regClass(t))
	joinL := k.label()
	off := 0
	for i, a := range e.In {
		sh := a.Type().Shape
		nextL := k.label()
		if i < len(e.In)-1 {
			k.op("@%s bra %s", k.setp("ge", ".s32", oc[dim], fmt.Sprint(off+sh[dim])), nextL)
		}
		c := append([]string(nil), oc...)
		local := k.reg("%r")
		k.op("sub.s32 %s, %s, %d", local, oc[dim], off)
		c[dim] = local
		k.move(res, read(i, k.linear(c, sh)))
		k.op("bra %s", joinL)
		k.mark(nextL)
		off += sh[dim]
	}
	k.mark(joinL)
	return value{res, t}, nil
}

// intsParam reads an []int parameter.
func intsParam(e *ir.Eqn, name string) ([]int, error) {
	v, ok := e.Params[name].([]int)
	if !ok {
		return nil, eqnError(e, fmt.Errorf("parameter %s is %T, want []int", name, e.Params[name]))
	}
	return v, nil
}
