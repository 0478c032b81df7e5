package ir

import "fmt"

// DType is an element type. The zero value is Invalid.
type DType uint8

// The supported element types.
const (
	Invalid DType = iota
	Float32
	Float64
	BFloat16
	Float16
	Int32
	Int64
	Bool
)

var dtypeShort = [...]string{"invalid", "f32", "f64", "bf16", "f16", "i32", "i64", "bool"}
var dtypeLong = [...]string{"invalid", "float32", "float64", "bfloat16", "float16", "int32", "int64", "bool"}

// String returns JAX's short dtype name (f32, i32, bool, ...), as used in
// printed jaxpr types.
func (d DType) String() string {
	if int(d) < len(dtypeShort) {
		return dtypeShort[d]
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// Name returns the long numpy-style name (float32, int32, bool, ...), as used
// in jaxpr parameters (new_dtype=float32) and in messages.
func (d DType) Name() string {
	if int(d) < len(dtypeLong) {
		return dtypeLong[d]
	}
	return d.String()
}

// IsFloat reports whether d is a floating-point type.
func (d DType) IsFloat() bool {
	return d == Float32 || d == Float64 || d == BFloat16 || d == Float16
}

// IsInt reports whether d is a (signed) integer type.
func (d DType) IsInt() bool { return d == Int32 || d == Int64 }

// ItemSize returns the size of one element in bytes (as stored on a device).
func (d DType) ItemSize() int {
	switch d {
	case Float64, Int64:
		return 8
	case Float32, Int32:
		return 4
	case BFloat16, Float16:
		return 2
	case Bool:
		return 1
	}
	return 0
}

// ParseDType parses a short (f32) or long (float32) dtype name.
func ParseDType(s string) (DType, bool) {
	for i := 1; i < len(dtypeShort); i++ {
		if dtypeShort[i] == s || dtypeLong[i] == s {
			return DType(i), true
		}
	}
	return Invalid, false
}
