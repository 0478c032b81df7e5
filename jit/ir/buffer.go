package ir

import "fmt"

// Buffer is a concrete array in host memory. Data holds the elements in
// row-major order as []float32 (Float32, and BFloat16/Float16 values rounded
// to their precision), []float64, []int32, []int64 or []bool.
type Buffer struct {
	DType DType
	Shape []int
	Data  any
}

// NewBuffer allocates a zero-filled buffer.
func NewBuffer(dt DType, shape []int) *Buffer {
	n := NumElements(shape)
	b := &Buffer{DType: dt, Shape: append([]int(nil), shape...)}
	switch dt {
	case Float32, BFloat16, Float16:
		b.Data = make([]float32, n)
	case Float64:
		b.Data = make([]float64, n)
	case Int32:
		b.Data = make([]int32, n)
	case Int64:
		b.Data = make([]int64, n)
	case Bool:
		b.Data = make([]bool, n)
	default:
		panic(fmt.Sprintf("ir.NewBuffer: invalid dtype %v", dt))
	}
	return b
}

// Aval returns the buffer's (strong) abstract value.
func (b *Buffer) Aval() Aval { return Aval{Shape: b.Shape, DType: b.DType} }

// Len is the number of elements.
func (b *Buffer) Len() int { return NumElements(b.Shape) }

// At returns element i converted to float64 (bools as 0/1).
func (b *Buffer) At(i int) float64 {
	switch d := b.Data.(type) {
	case []float32:
		return float64(d[i])
	case []float64:
		return d[i]
	case []int32:
		return float64(d[i])
	case []int64:
		return float64(d[i])
	case []bool:
		if d[i] {
			return 1
		}
		return 0
	}
	panic("ir.Buffer.At: bad data")
}

// Set stores v (converted to the buffer's dtype, rounded for bf16/f16) at i.
func (b *Buffer) Set(i int, v float64) {
	switch d := b.Data.(type) {
	case []float32:
		d[i] = RoundTo(b.DType, v)
	case []float64:
		d[i] = v
	case []int32:
		d[i] = int32(v)
	case []int64:
		d[i] = int64(v)
	case []bool:
		d[i] = v != 0
	default:
		panic("ir.Buffer.Set: bad data")
	}
}

// ScalarBuffer returns a 0-d buffer holding v.
func ScalarBuffer(dt DType, v float64) *Buffer {
	b := NewBuffer(dt, nil)
	b.Set(0, v)
	return b
}
