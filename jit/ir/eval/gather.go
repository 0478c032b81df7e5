package eval

import (
	"github.com/jitlint/jitlint/jit/ir"
)

// Layout primitives are evaluated as gathers: for every output element an
// index into the operand's data (or -1 for a fill value) is computed from
// per-dimension maps, then the elements are copied with one typed loop.

// combine returns, for each element of an array of the given shape in
// row-major order, the sum over dimensions d of maps[d][coord_d], or -1 when
// any term is negative.
func combine(shape []int, maps [][]int) []int {
	n := ir.NumElements(shape)
	idx := make([]int, n)
	coord := make([]int, len(shape))
	for i := 0; i < n; i++ {
		s := 0
		for d, c := range coord {
			m := maps[d][c]
			if m < 0 {
				s = -1
				break
			}
			s += m
		}
		idx[i] = s
		for d := len(shape) - 1; d >= 0; d-- {
			coord[d]++
			if coord[d] < shape[d] {
				break
			}
			coord[d] = 0
		}
	}
	return idx
}

// linearMap returns the map m[o] = (start + o*step) * stride for o in [0, n).
func linearMap(n, start, step, stride int) []int {
	m := make([]int, n)
	for o := range m {
		m[o] = (start + o*step) * stride
	}
	return m
}

// gather returns a buffer of src's dtype and the given shape with
// out[i] = src[idx[i]], or fill's single element where idx[i] < 0 (fill may
// be nil when no index is negative).
func gather(src *ir.Buffer, shape []int, idx []int, fill *ir.Buffer) *ir.Buffer {
	out := ir.NewBuffer(src.DType, shape)
	switch d := out.Data.(type) {
	case []float32:
		take(d, src.Data.([]float32), idx, fill)
	case []float64:
		take(d, src.Data.([]float64), idx, fill)
	case []int32:
		take(d, src.Data.([]int32), idx, fill)
	case []int64:
		take(d, src.Data.([]int64), idx, fill)
	case []bool:
		take(d, src.Data.([]bool), idx, fill)
	}
	return out
}

// take sets dst[i] = src[idx[i]], or the fill buffer's element for idx[i] < 0.
func take[T any](dst, src []T, idx []int, fill *ir.Buffer) {
	var f T
	if fill != nil {
		f = fill.Data.([]T)[0]
	}
	for i, k := range idx {
		if k < 0 {
			dst[i] = f
		} else {
			dst[i] = src[k]
		}
	}
}

// copyBuffer returns a copy of b with another shape of the same size.
func copyBuffer(b *ir.Buffer, shape []int) *ir.Buffer {
	out := ir.NewBuffer(b.DType, shape)
	copyData(out.Data, 0, b.Data)
	return out
}

// copyData copies all of src into dst starting at element off; dst and src
// hold the same element type.
func copyData(dst any, off int, src any) {
	switch s := src.(type) {
	case []float32:
		copy(dst.([]float32)[off:], s)
	case []float64:
		copy(dst.([]float64)[off:], s)
	case []int32:
		copy(dst.([]int32)[off:], s)
	case []int64:
		copy(dst.([]int64)[off:], s)
	case []bool:
		copy(dst.([]bool)[off:], s)
	}
}

// sliceData returns elements [lo, hi) of a data slice (sharing memory).
func sliceData(data any, lo, hi int) any {
	switch d := data.(type) {
	case []float32:
		return d[lo:hi]
	case []float64:
		return d[lo:hi]
	case []int32:
		return d[lo:hi]
	case []int64:
		return d[lo:hi]
	case []bool:
		return d[lo:hi]
	}
	return nil
}
