package jit

import (
	"fmt"
	"reflect"
	"time"

	"github.com/jitlint/jitlint/jit/ir"
)

// trace traces the function for a signature into a closed jaxpr.
func (c *funcCore) trace(kind string, sig *signature) (tr *Traced, err error) {
	defer recoverError(&err)
	start := time.Now()
	t := pushTrace(kind, c.name)
	defer t.pop()
	cj, outTree := c.traceInto(t, sig)
	for i, src := range t.constSrc {
		if src.buf == nil {
			throw(LeakedTracer, "%s captures a traced value of an enclosing trace (%s); pass it as an argument instead", c.name, src.aval)
		}
		cj.Consts = append(cj.Consts, t.constSrc[i].buf)
	}
	d := time.Since(start)
	c.mu.Lock()
	c.stats.Traces++
	c.stats.TraceTime += d
	c.stats.LastTraceTime = d
	c.mu.Unlock()
	if logCompiles.Load() {
		logf("Finished tracing %s for %s in %.9f sec", c.name, kind, d.Seconds())
	}
	return &Traced{core: c, cj: cj, sig: sig, outTree: outTree}, nil
}

// traceInto runs the function on fresh tracers of t for the signature's
// leaves and returns the jaxpr (constants not yet attached) and the result
// structure.
func (c *funcCore) traceInto(t *trace, sig *signature) (*ir.ClosedJaxpr, *treeDef) {
	outs, outTree := runTraced(t, c.fn, c.name, sig.tree, sig.avals, sig.paths)
	return &ir.ClosedJaxpr{Jaxpr: t.jaxpr(outs), Name: c.name}, outTree
}

// runTraced calls fn on fresh tracers of t (one per aval, named by paths,
// arranged as tree) and flattens its results.
func runTraced(t *trace, fn reflect.Value, name string, tree *treeDef, avals []ir.Aval, paths []string) ([]Array, *treeDef) {
	tracers := make([]Array, len(avals))
	for i, a := range avals {
		tracers[i] = t.newArg(a, paths[i])
	}
	res := fn.Call(tree.buildTuple(tracers))
	fo := &flattener{outputs: true}
	outTree := &treeDef{kind: tupleNode}
	for i, r := range res {
		outTree.children = append(outTree.children, fo.walk(fn.Type().Out(i), r, fmt.Sprintf("result %d of %s", i, name)))
	}
	outs := make([]Array, len(fo.leaves))
	for i, l := range fo.leaves {
		outs[i] = l.arr
	}
	return outs, outTree
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
	c.mu.RLock()
	ne := c.nested[string(f.key)]
	c.mu.RUnlock()
	if ne == nil || !ne.live() {
		ne = c.traceNested(sig)
		c.mu.Lock()
		c.nested[string(f.key)] = ne
		c.mu.Unlock()
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
