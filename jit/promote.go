package jit

import "github.com/jitlint/jitlint/jit/ir"

// kind orders dtype categories for promotion: bool < int < float.
func kind(d DType) int {
	switch {
	case d == Bool:
		return 0
	case d.IsInt():
		return 1
	}
	return 2
}

// promote returns the dtype and weak type of a binary operation on a and b,
// following JAX's type-promotion lattice with weak types (x64 off, except
// that 64-bit arrays stay 64-bit): a weak operand takes the other operand's
// dtype when that is of the same or a higher category; otherwise the weak
// operand's category wins and the result stays weak.
func promote(a, b ir.Aval) (DType, bool) {
	if a.DType == b.DType {
		return a.DType, a.Weak && b.Weak
	}
	switch {
	case a.Weak && b.Weak:
		if kind(a.DType) >= kind(b.DType) {
			return a.DType, true
		}
		return b.DType, true
	case a.Weak || b.Weak:
		w, s := a, b
		if b.Weak {
			w, s = b, a
		}
		if kind(w.DType) <= kind(s.DType) && s.DType != Bool {
			return s.DType, false
		}
		return w.DType, true
	}
	ka, kb := kind(a.DType), kind(b.DType)
	switch {
	case ka > kb:
		return a.DType, false
	case kb > ka:
		return b.DType, false
	case (a.DType == BFloat16 && b.DType == Float16) || (a.DType == Float16 && b.DType == BFloat16):
		return Float32, false
	case a.DType.ItemSize() >= b.DType.ItemSize():
		return a.DType, false
	}
	return b.DType, false
}

// convertTo converts a to dtype dt with weak type weak: nothing when it
// already has them, a folded constant for a concrete scalar, otherwise a
// convert_element_type equation.
func convertTo(a Array, dt DType, weak bool) Array {
	v := a.val()
	if v.aval.DType == dt && v.aval.Weak == weak {
		return a
	}
	if v.buf != nil && len(v.aval.Shape) == 0 {
		if weak && v.goNum != nil {
			return weakNumber(dt, *v.goNum)
		}
		return concrete(ir.ScalarBuffer(dt, v.scalarValue()), weak)
	}
	out := ir.Aval{Shape: v.aval.Shape, DType: dt, Weak: weak}
	return bind(ir.ConvertElementType, ir.Params{"new_dtype": dt, "weak_type": weak, "sharding": nil},
		[]ir.Aval{out}, a)[0]
}

// broadcastShapes returns the numpy broadcast of two shapes.
func broadcastShapes(op string, a, b []int) []int {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := append([]int{}, a...)
	off := len(a) - len(b)
	for i, d := range b {
		switch o := out[off+i]; {
		case o == d || d == 1:
		case o == 1:
			out[off+i] = d
		default:
			throw(ShapeMismatch, "%s got incompatible shapes for broadcasting: %v and %v", op, a, b)
		}
	}
	return out
}

// broadcastTo broadcasts a (numpy rules: trailing dimensions align) to shape
// with a broadcast_in_dim equation; a no-op when the shapes are equal.
func broadcastTo(a Array, shape []int) Array {
	v := a.val()
	if equalInts(v.aval.Shape, shape) {
		return a
	}
	n := len(v.aval.Shape)
	if n > len(shape) {
		throw(ShapeMismatch, "cannot broadcast shape %v to %v", v.aval.Shape, shape)
	}
	dims := make([]int, n)
	for i := range dims {
		dims[i] = len(shape) - n + i
		if d := v.aval.Shape[i]; d != 1 && d != shape[dims[i]] {
			throw(ShapeMismatch, "cannot broadcast shape %v to %v", v.aval.Shape, shape)
		}
	}
	out := ir.Aval{Shape: append([]int{}, shape...), DType: v.aval.DType, Weak: v.aval.Weak}
	return bind(ir.BroadcastInDim, ir.Params{"shape": out.Shape, "broadcast_dimensions": dims, "sharding": nil},
		[]ir.Aval{out}, a)[0]
}

// padRank gives a leading size-1 dimensions up to rank n with a
// broadcast_in_dim (lax.broadcast_to_rank); a no-op at rank n.
func padRank(a Array, n int) Array {
	v := a.val()
	k := n - len(v.aval.Shape)
	if k <= 0 {
		return a
	}
	shape := make([]int, 0, n)
	for range k {
		shape = append(shape, 1)
	}
	return broadcastTo(a, append(shape, v.aval.Shape...))
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Astype converts a to dtype dt (strongly typed).
func (a Array) Astype(dt DType) Array { return convertTo(a, dt, false) }
