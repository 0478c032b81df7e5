package jit

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
)

// Vmap returns fn vectorized over a batch axis: calling it with arguments
// that carry an extra (batch) dimension runs fn on every element at once, as
// jax.vmap. fn is traced once on one element's types; every primitive is
// then staged batched (a Cond or Switch whose predicate depends on the
// mapped arguments runs every branch and chooses per element with
// select_n; a WhileLoop with such a condition runs until every element is
// done). Options: InAxes and OutAxes (default 0 for every argument and
// result; NotMapped for an argument passed whole), Name. The result
// composes with Jit, MakeJaxpr, Grad and Vmap itself.
func Vmap[F any](fn F, opts ...Option) F {
	tf := newTransform("Vmap", reflect.ValueOf(fn), opts)
	if ax := tf.opts.inAxes; ax != nil && len(ax) != tf.typ.NumIn() {
		throw(BadArgument, "Vmap: InAxes has %d entries but %s has %d parameters (give one axis, or NotMapped, per parameter)",
			len(ax), tf.name, tf.typ.NumIn())
	}
	if ax := tf.opts.outAxes; ax != nil && len(ax) != tf.typ.NumOut() {
		throw(BadArgument, "Vmap: OutAxes has %d entries but %s has %d results", len(ax), tf.name, tf.typ.NumOut())
	}
	return named(reflect.MakeFunc(tf.typ, tf.vmapCall).Interface().(F), "vmap("+tf.name+")", tf.fn)
}

// vmapCall is the vectorized function.
func (tf *transform) vmapCall(args []reflect.Value) []reflect.Value {
	f, tree, argOf := tf.flatArgs(args)
	axes := make([]int, len(f.leaves))
	size := -1
	var sizes []string
	mismatch := false
	for k, l := range f.leaves {
		ax := 0
		if tf.opts.inAxes != nil {
			ax = tf.opts.inAxes[argOf[k]]
		}
		axes[k] = unbatched
		if ax == NotMapped {
			continue
		}
		r := len(l.aval.Shape)
		if ax < 0 {
			ax += r
		}
		if ax < 0 || ax >= r {
			throw(ShapeMismatch, "Vmap was asked to map %s over axis %d, which needs an array of rank at least %d, but its type is %s; "+
				"pass a batched array, or mark the argument with InAxes(..., jit.NotMapped, ...)",
				l.path, tf.inAxis(argOf[k]), max(tf.inAxis(argOf[k])+1, -tf.inAxis(argOf[k])), l.aval)
		}
		axes[k] = ax
		n := l.aval.Shape[ax]
		sizes = append(sizes, fmt.Sprintf("  * axis %d of %s (%s) has size %d", ax, l.path, l.aval, n))
		if size >= 0 && n != size {
			mismatch = true
		}
		if size < 0 {
			size = n
		}
	}
	if mismatch {
		batchSizeError(sizes)
	}
	if size < 0 {
		throw(BadArgument, "Vmap of %s: no argument is mapped (every argument is NotMapped or has no Arrays); map at least one", tf.name)
	}
	avals := make([]ir.Aval, len(f.leaves))
	paths := make([]string, len(f.leaves))
	in := make([]bval, len(f.leaves))
	for k, l := range f.leaves {
		avals[k], paths[k] = l.aval, l.path
		in[k] = bval{l.arr, axes[k]}
		if axes[k] != unbatched {
			avals[k].Shape = append(append([]int{}, l.aval.Shape[:axes[k]]...), l.aval.Shape[axes[k]+1:]...)
		}
	}
	tr := tf.trace("vmap", tree, avals, paths)
	b := &batcher{size: size}
	outs := b.run(tr.jaxpr, unbatchedAll(tr.consts), in)
	res := make([]Array, len(outs))
	k := 0
	for i, child := range tr.outTree.children {
		oa := 0
		if tf.opts.outAxes != nil {
			oa = tf.opts.outAxes[i]
		}
		for range child.leafCount() {
			res[k] = tf.placeOut(b, outs[k], oa, i)
			k++
		}
	}
	return tr.outTree.buildTuple(res)
}

// inAxis is the axis asked for argument i.
func (tf *transform) inAxis(i int) int {
	if tf.opts.inAxes == nil {
		return 0
	}
	return tf.opts.inAxes[i]
}

// placeOut puts a result's batch dimension at axis oa (broadcasting an
// unbatched result), or checks that a NotMapped result is unbatched.
func (tf *transform) placeOut(b *batcher, v bval, oa, result int) Array {
	if oa == NotMapped {
		if v.batched() {
			throw(ShapeMismatch, "Vmap of %s: result %d is NotMapped (OutAxes) but depends on the mapped arguments; "+
				"give it an output axis", tf.name, result)
		}
		return v.x
	}
	x := b.full(v)
	n := x.Ndim()
	if oa < 0 {
		oa += n
	}
	if oa < 0 || oa >= n {
		throw(ShapeMismatch, "Vmap of %s: OutAxes %d is out of range for result %d of rank %d", tf.name, oa, result, n)
	}
	return moveAxis(x, 0, oa)
}

// batchSizeError describes mismatched batch sizes, naming every mapped
// argument with its axis, type and size.
func batchSizeError(lines []string) {
	throw(ShapeMismatch, "Vmap got inconsistent sizes for the mapped axes of its arguments:\n%s\n"+
		"every mapped argument must have the same size along its mapped axis; "+
		"use InAxes(..., jit.NotMapped, ...) for an argument that is the same for every element", strings.Join(lines, "\n"))
}
