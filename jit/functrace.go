package jit

import (
	"fmt"
	"reflect"
	"time"

	"github.com/jitlint/jitlint/jit/ir"
)

// trace traces the function for a signature into a closed jaxpr.
func (c *funcCore) trace(kind string, sig *signature) (tr *Traced, err error) {
	defer c.recordTraceError(sig, &err)
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
	c.recordPhase(d, &c.stats.Traces, &c.stats.TraceTime, &c.stats.LastTraceTime)
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

// traceAny traces the function for arguments given as values (Arrays,
// ShapeDtypes, Go numbers, statics, pytrees), as Trace and MakeJaxpr do.
func (c *funcCore) traceAny(kind string, args []any) (tr *Traced, err error) {
	defer recoverError(&err)
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		vals[i] = reflect.ValueOf(a)
	}
	fl, tree := c.flattenArgs(vals, true, true)
	return c.trace(kind, fl.signature(tree, c.backendName()))
}
