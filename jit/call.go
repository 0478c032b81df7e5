package jit

import (
	"reflect"

	"github.com/jitlint/jitlint/jit/ir"
)

// callReflect is Call for any function type.
func (c *funcCore) callReflect(args []reflect.Value) []reflect.Value {
	if currentTrace() != nil {
		return c.callNested(args)
	}
	bk := c.backendName()
	f := c.flattenFast(args)
	f.key = append(f.key, bk...)
	e := c.lookup(f.key, func() *signature {
		f2, tree2 := c.flattenArgs(args, false, true)
		return f2.signature(tree2, bk)
	})
	outs := e.compiled.run(c, f.leaves)
	return e.compiled.outTree.buildTuple(outs)
}

// callArrays is Call for functions of Arrays returning one Array, without
// reflection on the cache-hit path.
func (c *funcCore) callArrays(xs []Array) Array {
	var kb [160]byte
	var bb [3]*ir.Buffer
	key, bufs := kb[:0], bb[:0]
	for _, x := range xs {
		v := x.val()
		if v.t != nil {
			return c.callSlow(xs)
		}
		key = appendAval(append(key, 'L'), v.aval)
		bufs = append(bufs, v.buf)
	}
	if currentTrace() != nil {
		return c.callSlow(xs)
	}
	bk := c.backendName()
	key = append(key, bk...)
	e := c.lookup(key, func() *signature {
		f, tree := c.flattenArgs(reflectValues(xs), false, true)
		return f.signature(tree, bk)
	})
	return e.compiled.runBuffers(c, bufs)[0]
}

// callSlow is callArrays through the general path (inside a trace).
func (c *funcCore) callSlow(xs []Array) Array {
	return c.callReflect(reflectValues(xs))[0].Interface().(Array)
}

// reflectValues wraps Arrays as call arguments for callReflect.
func reflectValues(xs []Array) []reflect.Value {
	vs := make([]reflect.Value, len(xs))
	for i, x := range xs {
		vs[i] = reflect.ValueOf(x)
	}
	return vs
}

// nestedEntry caches the jaxpr of a jitted function called inside another
// trace, so repeated calls share one jaxpr (printed once, as JAX does).
// Values the function captures (concrete data or tracers of the enclosing
// traces) are leading inputs of the jaxpr, passed as operands.
type nestedEntry struct {
	cj      *ir.ClosedJaxpr
	outTree *treeDef
	consts  []*value
}

// callNested stages a `jit` equation for a jitted function called while
// another function is being traced.
func (c *funcCore) callNested(args []reflect.Value) []reflect.Value {
	f, tree := c.flattenArgs(args, false, true)
	sig := f.signature(tree, "")
	fc := c.cache
	fc.mu.RLock()
	ne := fc.nested[string(f.key)]
	fc.mu.RUnlock()
	if ne == nil || !ne.live() {
		ne = c.traceNested(sig)
		fc.mu.Lock()
		fc.nested[string(f.key)] = ne
		fc.mu.Unlock()
	}
	operands := make([]Array, 0, len(ne.consts)+len(f.leaves))
	for _, cv := range ne.consts {
		operands = append(operands, Array{cv})
	}
	for _, l := range f.leaves {
		operands = append(operands, l.arr)
	}
	outs := bind(ir.Jit, ir.Params{"name": c.name, "jaxpr": ne.cj}, ne.cj.Jaxpr.OutAvals(), operands...)
	return ne.outTree.buildTuple(outs)
}

// traceNested traces the function for sig in a trace nested in the current
// one, its captured values turned into leading inputs.
func (c *funcCore) traceNested(sig *signature) *nestedEntry {
	t := pushTrace("jit", c.name)
	defer t.pop()
	cj, outTree := c.traceInto(t, sig)
	lowerConsts(cj.Jaxpr)
	return &nestedEntry{cj: cj, outTree: outTree, consts: t.constSrc}
}

// live reports whether the entry can still be used: the tracers it captured
// belong to traces that are still running (once such a trace ends, a new
// call captures new tracers and is traced again).
func (ne *nestedEntry) live() bool {
	for _, v := range ne.consts {
		if v.t != nil && v.t.done {
			return false
		}
	}
	return true
}

// lowerConsts turns a sub-jaxpr's constvars into leading invars: the
// values they stand for are passed as operands of the enclosing equation.
func lowerConsts(j *ir.Jaxpr) {
	j.Invars = append(append([]*ir.Var{}, j.Constvars...), j.Invars...)
	j.Constvars = nil
}
