package eval

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// validDType reports whether dt is one of the supported element types.
func ValidDType(dt ir.DType) bool { return dt >= ir.Float32 && dt <= ir.Bool }

// checkBuffer reports a malformed buffer: nil, an invalid dtype, negative
// dimensions, or data whose Go type or length does not match.
func CheckBuffer(b *ir.Buffer) error {
	if b == nil {
		return fmt.Errorf("nil buffer")
	}
	if !ValidDType(b.DType) {
		return fmt.Errorf("buffer has invalid dtype %v", b.DType)
	}
	for _, d := range b.Shape {
		if d < 0 {
			return fmt.Errorf("buffer has negative dimension in shape %v", b.Shape)
		}
	}
	n, ok := dataLen(b.Data)
	if !ok {
		return fmt.Errorf("buffer of dtype %s holds %T", b.DType, b.Data)
	}
	var okType bool
	switch b.Data.(type) {
	case []float32:
		okType = b.DType == ir.Float32 || b.DType == ir.BFloat16 || b.DType == ir.Float16
	case []float64:
		okType = b.DType == ir.Float64
	case []int32:
		okType = b.DType == ir.Int32
	case []int64:
		okType = b.DType == ir.Int64
	case []bool:
		okType = b.DType == ir.Bool
	}
	if !okType {
		return fmt.Errorf("buffer of dtype %s holds %T", b.DType, b.Data)
	}
	if n != b.Len() {
		return fmt.Errorf("buffer of shape %v holds %d elements, want %d", b.Shape, n, b.Len())
	}
	return nil
}

// dataLen returns the length of a buffer's data slice.
func dataLen(data any) (int, bool) {
	switch d := data.(type) {
	case []float32:
		return len(d), true
	case []float64:
		return len(d), true
	case []int32:
		return len(d), true
	case []int64:
		return len(d), true
	case []bool:
		return len(d), true
	}
	return 0, false
}

// rowMajorStrides returns the element strides of a row-major array.
func rowMajorStrides(shape []int) []int {
	s := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = n
		n *= shape[i]
	}
	return s
}

// rounder returns the function that rounds a float64 result to a dtype
// stored as float32.
func rounder(dt ir.DType) func(float64) float32 {
	switch dt {
	case ir.BFloat16, ir.Float16:
		return func(v float64) float32 { return ir.RoundTo(dt, v) }
	}
	return func(v float64) float32 { return float32(v) }
}
