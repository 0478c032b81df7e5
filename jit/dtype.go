package jit

import "github.com/jitlint/jitlint/jit/ir"

// DType is an array element type. String gives JAX's short names (f32, i32,
// bool, ...); Name gives the long ones (float32, int32, ...).
type DType = ir.DType

// The element types.
const (
	Float32  = ir.Float32
	Float64  = ir.Float64
	BFloat16 = ir.BFloat16
	Float16  = ir.Float16
	Int32    = ir.Int32
	Int64    = ir.Int64
	Bool     = ir.Bool
)

// ShapeDtype describes an array without data, for tracing (like
// jax.ShapeDtypeStruct).
type ShapeDtype struct {
	Shape []int
	Dtype DType
}

// Spec returns a ShapeDtype.
func Spec(dt DType, shape ...int) ShapeDtype {
	return ShapeDtype{Shape: append([]int{}, shape...), Dtype: dt}
}

func (s ShapeDtype) aval() ir.Aval { return ir.Aval{Shape: s.Shape, DType: s.Dtype} }
