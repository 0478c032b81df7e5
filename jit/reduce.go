package jit

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// normAxes validates axes against rank n, normalises negative ones, and
// returns them sorted; no axes means all.
func normAxes(op string, axes []int, n int) []int {
	if len(axes) == 0 {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, len(axes))
	for i, ax := range axes {
		if ax < 0 {
			ax += n
		}
		if ax < 0 || ax >= n {
			throw(ShapeMismatch, "%s: axis %d is out of bounds for an array of rank %d", op, axes[i], n)
		}
		out[i] = ax
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// reduce stages a reduction over axes (all when none are given); booleans
// are summed as int32.
func reduce(prim string, a Array, axes []int) Array {
	v := a.val()
	if prim == ir.ReduceSum && v.aval.DType == Bool {
		a = convertTo(a, Int32, false)
		v = a.val()
	}
	ax := normAxes(prim, axes, len(v.aval.Shape))
	var shape []int
	for i, d := range v.aval.Shape {
		if !slices.Contains(ax, i) {
			shape = append(shape, d)
		}
	}
	out := ir.Aval{Shape: shape, DType: v.aval.DType, Weak: v.aval.Weak}
	return bind(prim, ir.Params{"axes": ax, "out_sharding": nil}, []ir.Aval{out}, a)[0]
}

// Sum adds the elements over axes (all when none are given).
func (a Array) Sum(axes ...int) Array { return reduce(ir.ReduceSum, a, axes) }

// MaxReduce returns the maximum over axes (all when none are given).
func (a Array) MaxReduce(axes ...int) Array { return reduce(ir.ReduceMax, a, axes) }

// MinReduce returns the minimum over axes (all when none are given).
func (a Array) MinReduce(axes ...int) Array { return reduce(ir.ReduceMin, a, axes) }

// Mean averages over axes (all when none are given); integers average in f32.
func (a Array) Mean(axes ...int) Array {
	v := a.val()
	if !v.aval.DType.IsFloat() {
		a = convertTo(a, Float32, v.aval.Weak)
	}
	n := 1
	for _, ax := range normAxes("Mean", axes, len(v.aval.Shape)) {
		n *= v.aval.Shape[ax]
	}
	s := a.Sum(axes...)
	return s.Div(concrete(ir.ScalarBuffer(s.Dtype(), float64(n)), false))
}
