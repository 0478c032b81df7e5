package jit

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// Array is an immutable n-dimensional array: concrete (holding data) or
// abstract (a tracer standing for a value while a function is traced).
// Shape, Dtype, Ndim, Size and WeakType are always available; host
// conversions (Bool, Item, Float32s, ...) only on concrete arrays.
type Array struct{ v *value }

// value is an Array's state: concrete data (buf) or a tracer (t, v).
type value struct {
	aval ir.Aval
	buf  *ir.Buffer
	t    *trace
	v    *ir.Var
	// goNum is the exact Go number a weakly typed scalar was made from, so
	// that promotion to a wider dtype (f64) does not see it rounded to f32.
	goNum *float64
}

// val returns a's state, panicking with a clear error on a zero Array.
func (a Array) val() *value {
	if a.v == nil {
		throw(BadArgument, "use of a zero jit.Array (declared but never assigned); create arrays with jit.Zeros, jit.FromSlice, jit.Arange, ...")
	}
	return a.v
}

func concrete(b *ir.Buffer, weak bool) Array {
	a := b.Aval()
	a.Weak = weak
	return Array{&value{aval: a, buf: b}}
}

// Shape returns the array's dimensions (a copy).
func (a Array) Shape() []int { return append([]int{}, a.val().aval.Shape...) }

// Dtype returns the element type.
func (a Array) Dtype() DType { return a.val().aval.DType }

// Ndim returns the number of dimensions.
func (a Array) Ndim() int { return len(a.val().aval.Shape) }

// Size returns the number of elements.
func (a Array) Size() int { return a.val().aval.Size() }

// WeakType reports whether the array is weakly typed (made from a Go number).
func (a Array) WeakType() bool { return a.val().aval.Weak }

// IsTracer reports whether a is abstract (a value being traced).
func (a Array) IsTracer() bool { return a.val().t != nil }

// String prints a concrete array numpy-style ("[0. 1. 2.]") and a tracer as
// "Traced<f32[4]>".
func (a Array) String() string {
	if a.v == nil {
		return "jit.Array(nil)"
	}
	if a.v.t != nil {
		return "Traced<" + a.v.aval.String() + ">"
	}
	return a.v.buf.String()
}

// BlockUntilReady waits until a's data is computed and returns a. Backends in
// this package finish their work before returning results, so this only
// matters for timing code written the JAX way.
func (a Array) BlockUntilReady() Array {
	a.val()
	return a
}

// buffer returns the concrete data, or panics with a Concretization error
// naming the conversion that needed it.
func (a Array) buffer(conv string) *ir.Buffer {
	v := a.val()
	if v.t == nil {
		return v.buf
	}
	if v.t.done {
		throw(LeakedTracer, "%s was called on a traced value of %s (%s) after its trace ended; "+
			"return values from traced functions instead of storing them in variables", conv, v.t.fnName, v.aval)
	}
	if conv == "Bool" {
		throw(TracerBoolConversion, "Attempted boolean conversion of traced array with shape %s.\n%s"+
			"A traced value has no concrete Go value while the function is traced, so Go control flow (if, for, &&) cannot depend on it. "+
			"Use jit.Where(cond, x, y) for an elementwise choice or jit.Cond(pred, f, g, x) for a branch "+
			"(or jit.WhileLoop for a loop); if the value is really a compile-time constant, pass it as a static argument.",
			v.aval, origin(v))
	}
	throw(Concretization, "Abstract tracer value encountered where concrete value is expected: traced array with shape %s\n"+
		"The problem arose with the `%s` conversion. %s"+
		"Keep the computation in jit ops (use x.Astype(dtype) to change a dtype), or pass the value as a static argument.",
		v.aval, conv, origin(v))
	return nil
}

// origin explains where a tracer comes from: the traced function and the
// arguments the value depends on.
func origin(v *value) string {
	t := v.t
	for t.parent != nil && t.kind != "jit" && t.kind != "make_jaxpr" {
		t = t.parent
	}
	args := dependsOn(t, v)
	s := fmt.Sprintf("The error occurred while tracing the function %s for %s.", t.fnName, t.kind)
	if len(args) > 0 {
		s += " This concrete value was not available in Go because it depends on the value of " + argList(args) + "."
	}
	return s + "\n"
}

// host returns a scalar's value as float64 for the given conversion.
func (a Array) host(conv string) float64 {
	b := a.buffer(conv)
	if b.Len() != 1 {
		throw(ShapeMismatch, "%s needs an array with one element, got shape %v", conv, b.Shape)
	}
	return b.At(0)
}

// Bool returns the value of a one-element array as a Go bool. On a tracer it
// panics with a TracerBoolConversion *Error.
func (a Array) Bool() bool { return a.host("Bool") != 0 }

// Item returns the value of a one-element array as float64. On a tracer it
// panics with a Concretization *Error.
func (a Array) Item() float64 { return a.host("Item") }

// Int returns the value of a one-element array as int. On a tracer it panics
// with a Concretization *Error.
func (a Array) Int() int { return int(a.host("Int")) }

// Float32s returns the elements as []float32 (converted if needed).
func (a Array) Float32s() []float32 {
	b := a.buffer("Float32s")
	if d, ok := b.Data.([]float32); ok && b.DType == Float32 {
		return append([]float32{}, d...)
	}
	out := make([]float32, b.Len())
	for i := range out {
		out[i] = float32(b.At(i))
	}
	return out
}

// Float64s returns the elements as []float64.
func (a Array) Float64s() []float64 {
	b := a.buffer("Float64s")
	out := make([]float64, b.Len())
	for i := range out {
		out[i] = b.At(i)
	}
	return out
}

// Int32s returns the elements as []int32 (floats truncated).
func (a Array) Int32s() []int32 {
	b := a.buffer("Int32s")
	out := make([]int32, b.Len())
	for i := range out {
		out[i] = int32(b.At(i))
	}
	return out
}

// Int64s returns the elements as []int64 (floats truncated).
func (a Array) Int64s() []int64 {
	b := a.buffer("Int64s")
	out := make([]int64, b.Len())
	for i := range out {
		out[i] = int64(b.At(i))
	}
	return out
}

// Bools returns the elements as []bool (nonzero is true).
func (a Array) Bools() []bool {
	b := a.buffer("Bools")
	out := make([]bool, b.Len())
	for i := range out {
		out[i] = b.At(i) != 0
	}
	return out
}
