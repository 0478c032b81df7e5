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

// Reshape returns a with a new shape of the same size; one dimension may be -1.
func (a Array) Reshape(shape ...int) Array {
	v := a.val()
	shape = append([]int{}, shape...)
	infer, known := -1, 1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			throw(ShapeMismatch, "Reshape: invalid dimension %d in %v", d, shape)
		default:
			known *= d
		}
	}
	if infer >= 0 && known > 0 {
		shape[infer] = v.aval.Size() / known
	}
	if ir.NumElements(shape) != v.aval.Size() {
		throw(ShapeMismatch, "Reshape: cannot reshape an array of shape %v (%d elements) into shape %v",
			v.aval.Shape, v.aval.Size(), shape)
	}
	if equalInts(shape, v.aval.Shape) {
		return a
	}
	out := ir.Aval{Shape: shape, DType: v.aval.DType, Weak: v.aval.Weak}
	return bind(ir.Reshape, ir.Params{"new_sizes": shape, "dimensions": nil, "sharding": nil}, []ir.Aval{out}, a)[0]
}

// Transpose permutes the dimensions (reverses them when perm is empty).
func (a Array) Transpose(perm ...int) Array {
	v := a.val()
	n := len(v.aval.Shape)
	if len(perm) == 0 {
		perm = make([]int, n)
		for i := range perm {
			perm[i] = n - 1 - i
		}
	}
	seen := make([]bool, n)
	shape := make([]int, len(perm))
	identity := true
	for i, p := range perm {
		if len(perm) != n || p < 0 || p >= n || seen[p] {
			throw(ShapeMismatch, "Transpose: %v is not a permutation of the %d dimensions of shape %v", perm, n, v.aval.Shape)
		}
		seen[p] = true
		shape[i] = v.aval.Shape[p]
		identity = identity && p == i
	}
	if identity {
		return a
	}
	out := ir.Aval{Shape: shape, DType: v.aval.DType, Weak: v.aval.Weak}
	return bind(ir.Transpose, ir.Params{"permutation": append([]int{}, perm...)}, []ir.Aval{out}, a)[0]
}

// Astype converts a to dtype dt (strongly typed).
func (a Array) Astype(dt DType) Array { return convertTo(a, dt, false) }

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

// Where chooses x where cond is true and y elsewhere, elementwise (one
// select_n equation: `select_n cond y x`). cond, x and y broadcast together;
// each may be an Array or a Go number.
func Where(cond, x, y any) Array {
	c, a, b := asArray(cond), asArray(x), asArray(y)
	if c.Dtype() != Bool {
		c = c.Ne(0)
	}
	dt, weak := promote(a.val().aval, b.val().aval)
	a, b = convertTo(a, dt, weak), convertTo(b, dt, weak)
	shape := broadcastShapes("Where", broadcastShapes("Where", c.val().aval.Shape, a.val().aval.Shape), b.val().aval.Shape)
	c, a, b = broadcastTo(c, shape), broadcastTo(a, shape), broadcastTo(b, shape)
	out := ir.Aval{Shape: shape, DType: dt, Weak: weak}
	return bind(ir.SelectN, nil, []ir.Aval{out}, c, b, a)[0]
}

// PadTo right-pads a 1-D array with zeros to size and returns it with a mask
// (1 for real elements, 0 for padding, in x's dtype). Padding to a fixed size
// keeps the shape (and so the compiled program) the same for inputs of
// different lengths. It fails when x is not 1-D or is longer than size.
func PadTo(x Array, size int) (padded, mask Array, err error) {
	v := x.val()
	if len(v.aval.Shape) != 1 {
		return Array{}, Array{}, newError(ShapeMismatch, "PadTo needs a 1-D array, got shape %v", v.aval.Shape)
	}
	n := v.aval.Shape[0]
	if n > size {
		return Array{}, Array{}, newError(ShapeMismatch,
			"PadTo: sequence of length %d is longer than the padded size %d; raise the size (or add a bucket) or truncate the input", n, size)
	}
	pad := func(a Array) Array {
		if n == size {
			return a
		}
		out := ir.Aval{Shape: []int{size}, DType: v.aval.DType, Weak: v.aval.Weak}
		zero := concrete(ir.ScalarBuffer(v.aval.DType, 0), v.aval.Weak)
		return bind(ir.Pad, ir.Params{"padding_config": [][3]int{{0, size - n, 0}}}, []ir.Aval{out}, a, zero)[0]
	}
	return pad(x), pad(Ones(v.aval.DType, n)), nil
}
