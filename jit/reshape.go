package jit

import "github.com/jitlint/jitlint/jit/ir"

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
