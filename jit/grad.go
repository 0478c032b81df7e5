package jit

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
)

// Grad returns the gradient of fn's first result (a float scalar) with
// respect to the arguments chosen by Argnums (default 0), computed in
// reverse mode as jax.grad: fn is traced once, its forward pass is staged
// with the residuals each derivative needs, then the transposed
// derivatives in reverse order. G is the gradient function's type: fn's
// parameters, and one result per Argnums argument, of that argument's type
// (a pytree argument gets a pytree gradient), e.g.
//
//	df := jit.Grad[func(jit.Array) jit.Array](f)
//
// A G that does not fit is a BadArgument error at the Grad call naming the
// type that does. The result composes with Jit, MakeJaxpr, Vmap and Grad.
// WhileLoop (and ForiLoop with traced bounds) cannot be differentiated in
// reverse mode; use ScanN or ForiLoop with Go int bounds.
func Grad[G, F any](fn F, opts ...Option) G { return makeGrad[G](fn, opts, false) }

// ValueAndGrad is Grad whose G also returns fn's first result, first.
func ValueAndGrad[G, F any](fn F, opts ...Option) G { return makeGrad[G](fn, opts, true) }

func makeGrad[G any](fn any, opts []Option, withValue bool) G {
	api, prefix := "Grad", "grad"
	if withValue {
		api, prefix = "ValueAndGrad", "value_and_grad"
	}
	tf := newTransform(api, reflect.ValueOf(fn), opts)
	argnums := tf.opts.argnums
	if argnums == nil {
		argnums = []int{0}
	}
	for i, a := range argnums {
		if a < 0 || a >= tf.typ.NumIn() {
			throw(BadArgument, "%s: Argnums(%d) is out of range: %s has %d parameters", api, a, tf.name, tf.typ.NumIn())
		}
		if slices.Contains(argnums[:i], a) {
			throw(BadArgument, "%s: Argnums lists argument %d twice", api, a)
		}
	}
	if tf.typ.NumOut() == 0 {
		throw(BadArgument, "%s: %s has no results; its first result must be the scalar to differentiate", api, tf.name)
	}
	want := gradType(tf.typ, argnums, withValue)
	gt := reflect.TypeFor[G]()
	if !sameSignature(gt, want) {
		throw(BadArgument, "%s: the gradient function type G is %v, but the gradient of %s with respect to %s has type %v; "+
			"write jit.%s[%v](%s)", api, gt, tf.name, tf.argList(argnums), want, api, want, tf.name)
	}
	g := reflect.MakeFunc(gt, func(args []reflect.Value) []reflect.Value { return tf.gradCall(args, argnums, withValue) })
	return named(g.Interface().(G), prefix+"("+tf.name+")", tf.fn)
}

// gradType is the type of fn's gradient function.
func gradType(fn reflect.Type, argnums []int, withValue bool) reflect.Type {
	in := make([]reflect.Type, fn.NumIn())
	for i := range in {
		in[i] = fn.In(i)
	}
	var out []reflect.Type
	if withValue {
		out = append(out, fn.Out(0))
	}
	for _, a := range argnums {
		out = append(out, fn.In(a))
	}
	return reflect.FuncOf(in, out, false)
}

// sameSignature reports whether g is a function type with want's
// parameters and results (g may be a named type).
func sameSignature(g, want reflect.Type) bool {
	if g.Kind() != reflect.Func || g.IsVariadic() || g.NumIn() != want.NumIn() || g.NumOut() != want.NumOut() {
		return false
	}
	for i := range g.NumIn() {
		if g.In(i) != want.In(i) {
			return false
		}
	}
	for i := range g.NumOut() {
		if g.Out(i) != want.Out(i) {
			return false
		}
	}
	return true
}

// argList names the differentiated arguments: "argument 0 (x)".
func (tf *transform) argList(argnums []int) string {
	parts := make([]string, len(argnums))
	for i, a := range argnums {
		parts[i] = fmt.Sprintf("argument %d (%s)", a, tf.argName(a))
	}
	return strings.Join(parts, " and ")
}

// gradCall is the gradient function.
func (tf *transform) gradCall(args []reflect.Value, argnums []int, withValue bool) []reflect.Value {
	f, tree, argOf := tf.flatArgs(args)
	avals := make([]ir.Aval, len(f.leaves))
	paths := make([]string, len(f.leaves))
	primals := make([]Array, len(f.leaves))
	diff := make([]bool, len(f.leaves))
	for k, l := range f.leaves {
		avals[k], paths[k], primals[k] = l.aval, l.path, l.arr
		diff[k] = slices.Contains(argnums, argOf[k])
		if diff[k] && !l.aval.DType.IsFloat() {
			throw(DTypeMismatch, "Grad requires float inputs, but %s is %s. Differentiate with respect to float arguments only "+
				"(choose them with Argnums), or convert this one with Astype(jit.Float32)", l.path, l.aval)
		}
	}
	tr := tf.trace("grad", tree, avals, paths)
	if tr.outTree.children[0].kind != leafNode {
		throw(BadArgument, "Grad: the first result of %s must be an Array (the scalar to differentiate), got %s",
			tf.name, tr.outTree.children[0])
	}
	out := tr.jaxpr.Outvars[0].Type()
	if len(out.Shape) != 0 {
		throw(ShapeMismatch, "Gradient only defined for scalar-output functions. Output had shape: %s", dimsString(out.Shape))
	}
	if !out.DType.IsFloat() {
		throw(DTypeMismatch, "Grad requires a float output, but %s returns %s; compute the result in floats (Astype(jit.Float32))", tf.name, out)
	}
	cts := make([]Array, len(tr.jaxpr.Outvars))
	cts[0] = concrete(ir.ScalarBuffer(out.DType, 1), false)
	outs, g := vjpJaxpr(tr.jaxpr, tr.consts, primals, diff, cts)
	var res []reflect.Value
	if withValue {
		n := 0
		res = append(res, tr.outTree.children[0].build(outs[:1], &n))
	}
	for _, a := range argnums {
		var leaves []Array
		for k, l := range f.leaves {
			if argOf[k] == a {
				leaves = append(leaves, convertTo(instantiate(g[k], l.aval), l.aval.DType, l.aval.Weak))
			}
		}
		n := 0
		v := tree.children[a].build(leaves, &n)
		if !v.IsValid() {
			v = reflect.Zero(tf.typ.In(a))
		}
		res = append(res, v)
	}
	return res
}

// dimsString prints a shape as "[3]" or "[2,3]".
func dimsString(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
