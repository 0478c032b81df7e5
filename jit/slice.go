package jit

import "github.com/jitlint/jitlint/jit/ir"

// Slice returns a[start:limit] per dimension.
func (a Array) Slice(start, limit []int) Array {
	v := a.val()
	n := len(v.aval.Shape)
	if len(start) != n || len(limit) != n {
		throw(ShapeMismatch, "Slice: start %v and limit %v must have one entry per dimension of shape %v", start, limit, v.aval.Shape)
	}
	shape := make([]int, n)
	for i := range shape {
		if start[i] < 0 || limit[i] < start[i] || limit[i] > v.aval.Shape[i] {
			throw(ShapeMismatch, "Slice: [%d:%d] is out of bounds for dimension %d of shape %v", start[i], limit[i], i, v.aval.Shape)
		}
		shape[i] = limit[i] - start[i]
	}
	out := ir.Aval{Shape: shape, DType: v.aval.DType, Weak: v.aval.Weak}
	return bind(ir.Slice, ir.Params{"start_indices": append([]int{}, start...), "limit_indices": append([]int{}, limit...), "strides": nil},
		[]ir.Aval{out}, a)[0]
}

// Concatenate joins arrays along axis (dtypes are promoted).
func Concatenate(axis int, arrays ...Array) Array {
	if len(arrays) == 0 {
		throw(ShapeMismatch, "Concatenate needs at least one array")
	}
	first := arrays[0].val().aval
	dt, weak := first.DType, first.Weak
	for _, a := range arrays[1:] {
		dt, weak = promote(ir.Aval{DType: dt, Weak: weak}, a.val().aval)
	}
	n := len(first.Shape)
	if axis < 0 {
		axis += n
	}
	if axis < 0 || axis >= n {
		throw(ShapeMismatch, "Concatenate: axis %d is out of bounds for rank %d", axis, n)
	}
	shape := append([]int{}, first.Shape...)
	shape[axis] = 0
	conv := make([]Array, len(arrays))
	for i, a := range arrays {
		s := a.val().aval.Shape
		for d := range s {
			if len(s) != n || (d != axis && s[d] != first.Shape[d]) {
				throw(ShapeMismatch, "Concatenate: shapes %v and %v differ outside axis %d", first.Shape, s, axis)
			}
		}
		shape[axis] += s[axis]
		conv[i] = convertTo(a, dt, weak)
	}
	out := ir.Aval{Shape: shape, DType: dt, Weak: weak}
	return bind(ir.Concatenate, ir.Params{"dimension": axis}, []ir.Aval{out}, conv...)[0]
}
