package ir

import (
	"slices"
	"strconv"
	"strings"
)

// Aval is an abstract value: what the tracer knows about an array without its
// data. Weak marks a weakly typed value (a Go number used as an operand), which
// takes the dtype of the other operand in binary operations, as in JAX.
type Aval struct {
	Shape []int
	DType DType
	Weak  bool
}

// Size is the number of elements (1 for a scalar).
func (a Aval) Size() int { return NumElements(a.Shape) }

// Ndim is the number of dimensions.
func (a Aval) Ndim() int { return len(a.Shape) }

// String prints the type as JAX prints it in a jaxpr: f32[4,5], i32[], bool[3].
// Weak types are not shown (see StringWeak).
func (a Aval) String() string {
	var b strings.Builder
	b.WriteString(a.DType.String())
	b.WriteByte('[')
	for i, d := range a.Shape {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(']')
	return b.String()
}

// StringWeak prints the type as JAX's cache-miss explanations do:
// f32[]{weak_type=True} for a weak type, f32[] otherwise.
func (a Aval) StringWeak() string {
	if a.Weak {
		return a.String() + "{weak_type=True}"
	}
	return a.String()
}

// Equal reports whether a and b have the same shape, dtype and weak type.
func (a Aval) Equal(b Aval) bool {
	return a.DType == b.DType && a.Weak == b.Weak && slices.Equal(a.Shape, b.Shape)
}

// TypeMatch reports whether a and b have the same shape and dtype, ignoring
// weak types (JAX's core.typematch).
func (a Aval) TypeMatch(b Aval) bool {
	return a.DType == b.DType && slices.Equal(a.Shape, b.Shape)
}

// NumElements is the product of the dimensions.
func NumElements(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
