package jit

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"unsafe"

	"github.com/jitlint/jitlint/jit/ir"
)

// NotMapped, given to InAxes or OutAxes, marks an argument or result that
// Vmap does not batch (JAX's None).
const NotMapped = -1 << 30

// InAxes sets, per positional argument, the axis Vmap maps over (default 0
// for every argument; negative axes count from the end; NotMapped for an
// argument passed whole to every call). The axis applies to every Array leaf
// of a pytree argument.
func InAxes(axes ...int) Option {
	return func(o *options) { o.inAxes = append([]int{}, axes...) }
}

// OutAxes sets, per result, the axis of the batch dimension in Vmap's
// results (default 0; NotMapped for a result that does not depend on the
// mapped arguments).
func OutAxes(axes ...int) Option {
	return func(o *options) { o.outAxes = append([]int{}, axes...) }
}

// Argnums sets the positional arguments Grad and ValueAndGrad
// differentiate with respect to (default 0).
func Argnums(i ...int) Option {
	return func(o *options) { o.argnums = append([]int{}, i...) }
}

// transform is what Vmap and Grad know about the function they transform.
type transform struct {
	fn   reflect.Value
	typ  reflect.Type
	name string
	opts options

	srcOnce sync.Once
	params  []string
}

func newTransform(api string, fn reflect.Value, opts []Option) *transform {
	if !fn.IsValid() || fn.Kind() != reflect.Func || fn.IsNil() {
		throw(BadArgument, "jit.%s needs a non-nil function, got %v", api, fn.Kind())
	}
	if fn.Type().IsVariadic() {
		throw(BadArgument, "jit.%s: variadic functions are not supported; take a slice of Arrays instead", api)
	}
	o := buildOptions(opts)
	name := o.name
	if name == "" {
		name = funcName(fn)
	}
	return &transform{fn: fn, typ: fn.Type(), name: name, opts: o}
}

// argName names parameter i for messages: its source name, or args[i].
func (tf *transform) argName(i int) string {
	tf.srcOnce.Do(func() { _, tf.params = funcSource(tf.fn) })
	if i < len(tf.params) && tf.params[i] != "" && tf.params[i] != "_" {
		return tf.params[i]
	}
	return fmt.Sprintf("args[%d]", i)
}

// flatArgs flattens a call's arguments; argOf gives each leaf's position.
// Values of non-pytree types (a float64 parameter, a callback) are passed
// to the function as they are.
func (tf *transform) flatArgs(args []reflect.Value) (f *flattener, tree *treeDef, argOf []int) {
	f = &flattener{passThrough: true}
	tree = &treeDef{kind: tupleNode}
	for i, a := range args {
		n := len(f.leaves)
		tree.children = append(tree.children, f.walk(tf.typ.In(i), a, tf.argName(i)))
		for range f.leaves[n:] {
			argOf = append(argOf, i)
		}
	}
	return f, tree, argOf
}

// traced is a function traced for a transformation: its jaxpr, what its
// constvars stand for (concrete data or tracers of enclosing traces), and
// its result structure.
type traced struct {
	jaxpr   *ir.Jaxpr
	consts  []Array
	outTree *treeDef
}

// trace traces the function on fresh inputs of the given types (one per
// leaf of tree) in a nested trace of the given kind.
func (tf *transform) trace(kind string, tree *treeDef, avals []ir.Aval, paths []string) traced {
	t := pushTrace(kind, tf.name)
	defer t.pop()
	outs, outTree := runTraced(t, tf.fn, tf.name, tree, avals, paths)
	j := t.jaxpr(outs)
	consts := make([]Array, len(t.constSrc))
	for i, v := range t.constSrc {
		consts[i] = Array{v}
	}
	return traced{jaxpr: j, consts: consts, outTree: outTree}
}

// leafCount returns the number of Array leaves under t.
func (t *treeDef) leafCount() int {
	if t.kind == leafNode {
		return 1
	}
	n := 0
	for _, c := range t.children {
		n += c.leafCount()
	}
	return n
}

// literalArray is a literal operand as a concrete scalar.
func literalArray(l ir.Literal) Array {
	return concrete(ir.ScalarBuffer(l.Aval.DType, l.Value), l.Aval.Weak)
}

// broadcastInDim stages broadcast_in_dim of a to shape, with a's dimension
// i becoming dims[i].
func broadcastInDim(a Array, shape, dims []int) Array {
	v := a.val()
	if equalInts(v.aval.Shape, shape) {
		return a
	}
	out := ir.Aval{Shape: append([]int{}, shape...), DType: v.aval.DType, Weak: v.aval.Weak}
	return bind(ir.BroadcastInDim, ir.Params{"shape": out.Shape, "broadcast_dimensions": append([]int{}, dims...), "sharding": nil},
		[]ir.Aval{out}, a)[0]
}

// moveAxis moves dimension src of a to position dst (a transpose, none
// when src == dst).
func moveAxis(a Array, src, dst int) Array {
	n := a.Ndim()
	perm := make([]int, 0, n)
	for i := range n {
		if i != src {
			perm = append(perm, i)
		}
	}
	perm = append(perm[:dst], append([]int{src}, perm[dst:]...)...)
	return a.Transpose(perm...)
}

// insertDim returns shape with size inserted at position at.
func insertDim(shape []int, at, size int) []int {
	out := make([]int, 0, len(shape)+1)
	out = append(out, shape[:at]...)
	out = append(out, size)
	return append(out, shape[at:]...)
}

// StopGradient returns x unchanged, as a value Grad does not differentiate
// through (its gradient is zero); a stop_gradient equation on floats, x
// itself on other dtypes (as jax.lax.stop_gradient).
func StopGradient(x Array) Array {
	v := x.val()
	if !v.aval.DType.IsFloat() {
		return x
	}
	return bind(ir.StopGradient, nil, []ir.Aval{v.aval}, x)[0]
}

// transformedFuncs names the functions Vmap, Grad and ValueAndGrad return
// ("vmap(f)") and keeps the function each transforms, so that Jit and
// MakeJaxpr of them name them in jaxprs, logs and messages and place them
// where the transformed function is defined: reflect.MakeFunc functions
// all share one code pointer, so they are told apart by their closure.
var transformedFuncs sync.Map // closure pointer -> transformedFunc

// A transformedFunc is a function made by a transformation: its name and
// the function it transforms.
type transformedFunc struct {
	name  string
	inner reflect.Value
}

// named records the name of fn, made from inner, and returns fn.
func named[F any](fn F, name string, inner reflect.Value) F {
	p := closurePtr(reflect.ValueOf(fn))
	transformedFuncs.Store(uintptr(p), transformedFunc{name, inner})
	runtime.AddCleanup((*byte)(p), func(k uintptr) { transformedFuncs.Delete(k) }, uintptr(p))
	return fn
}

// closurePtr is a func value's closure pointer (the data word of the
// interface holding it: func values are pointer-shaped).
func closurePtr(fn reflect.Value) unsafe.Pointer {
	f := fn.Interface()
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&f))[1]
}

// transformedName returns the name of a function made by Vmap or Grad.
func transformedName(fn reflect.Value) (string, bool) {
	if fn.Kind() != reflect.Func || fn.IsNil() {
		return "", false
	}
	t, ok := transformedOf(fn)
	return t.name, ok
}

// transformedOf returns what fn, a function made by Vmap or Grad, was
// made of.
func transformedOf(fn reflect.Value) (transformedFunc, bool) {
	if fn.Kind() != reflect.Func || fn.IsNil() {
		return transformedFunc{}, false
	}
	t, ok := transformedFuncs.Load(uintptr(closurePtr(fn)))
	if !ok {
		return transformedFunc{}, false
	}
	return t.(transformedFunc), true
}
