package jit

import "github.com/jitlint/jitlint/jit/ir"

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
