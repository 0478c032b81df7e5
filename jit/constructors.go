package jit

import "github.com/jitlint/jitlint/jit/ir"

// Arange returns [0, 1, ..., n-1] with dtype dt (an iota equation when traced).
func Arange(n int, dt DType) Array {
	if n < 0 {
		throw(ShapeMismatch, "Arange: negative length %d", n)
	}
	shape := []int{n}
	return bind(ir.Iota, ir.Params{"dtype": dt, "shape": shape, "dimension": 0, "sharding": nil},
		[]ir.Aval{{Shape: shape, DType: dt}})[0]
}

// Zeros returns an array of zeros.
func Zeros(dt DType, shape ...int) Array { return Full(0, dt, shape...) }

// Ones returns an array of ones.
func Ones(dt DType, shape ...int) Array { return Full(1, dt, shape...) }

// Full returns an array filled with v (a broadcast_in_dim of a literal when traced).
func Full(v float64, dt DType, shape ...int) Array {
	checkShape("Full", shape)
	s := concrete(ir.ScalarBuffer(dt, v), false)
	if len(shape) == 0 {
		return s
	}
	return broadcastTo(s, shape)
}

func checkShape(op string, shape []int) {
	for _, d := range shape {
		if d < 0 {
			throw(ShapeMismatch, "%s: negative dimension in shape %v", op, shape)
		}
	}
}

// Element is the set of Go element types arrays can be made from.
type Element interface {
	float32 | float64 | int32 | int64 | bool
}

func dtypeOf[T Element]() DType {
	var z T
	switch any(z).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case int32:
		return Int32
	case int64:
		return Int64
	}
	return Bool
}

// FromSlice returns a concrete array holding a copy of data. With no shape
// the array is 1-D; otherwise the shape's size must equal len(data).
func FromSlice[T Element](data []T, shape ...int) Array {
	if len(shape) == 0 {
		shape = []int{len(data)}
	}
	checkShape("FromSlice", shape)
	if ir.NumElements(shape) != len(data) {
		throw(ShapeMismatch, "FromSlice: %d elements do not fill shape %v (%d elements)", len(data), shape, ir.NumElements(shape))
	}
	dt := dtypeOf[T]()
	b := &ir.Buffer{DType: dt, Shape: append([]int{}, shape...), Data: append([]T{}, data...)}
	return concrete(b, false)
}

// Scalar returns a concrete 0-d array holding v (strongly typed).
func Scalar[T Element](v T) Array {
	return concrete(&ir.Buffer{DType: dtypeOf[T](), Data: []T{v}}, false)
}

// asArray converts an operand: an Array as is, a Go number as a weakly typed
// scalar (int → i32, float → f32), typed int32/int64 as strong scalars, a
// bool as a bool scalar.
func asArray(x any) Array {
	switch v := x.(type) {
	case Array:
		v.val()
		return v
	case float64:
		return weakNumber(Float32, v)
	case float32:
		return weakNumber(Float32, float64(v))
	case int:
		return weakNumber(Int32, float64(v))
	case int32:
		return Scalar(v)
	case int64:
		return Scalar(v)
	case bool:
		return Scalar(v)
	}
	throw(BadArgument, "operand of type %T is not an Array or a Go number", x)
	return Array{}
}

// goNumber reports whether x is a Go number or bool (not an Array).
func goNumber(x any) bool {
	switch x.(type) {
	case float64, float32, int, int32, int64, bool:
		return true
	}
	return false
}

// weakNumber is a weakly typed scalar made from a Go number.
func weakNumber(dt DType, v float64) Array {
	a := concrete(ir.ScalarBuffer(dt, v), true)
	a.v.goNum = &v
	return a
}

// scalarValue is a concrete scalar's value: the exact Go number when it was
// made from one.
func (v *value) scalarValue() float64 {
	if v.goNum != nil {
		return *v.goNum
	}
	return v.buf.At(0)
}
