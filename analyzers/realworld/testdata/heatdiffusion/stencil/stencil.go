// Package stencil holds the finite-difference pieces shared by the rod solvers.
package stencil

import "github.com/jitlint/jitlint/jit"

// Laplacian returns the second difference of u on its interior points,
// (u[i-1] - 2u[i] + u[i+1]) / dx^2, one element shorter at each end.
func Laplacian(u jit.Array, dx float64) jit.Array {
	n := u.Shape()[0]
	left := u.Slice([]int{0}, []int{n - 2})
	mid := u.Slice([]int{1}, []int{n - 1})
	right := u.Slice([]int{2}, []int{n})
	return left.Add(right).Sub(mid.Mul(2)).Div(dx * dx)
}

// WithEnds puts boundary values back around an interior.
func WithEnds(interior, lo, hi jit.Array) jit.Array {
	return jit.Concatenate(0, lo.Reshape(1), interior, hi.Reshape(1))
}

// Ends returns the first and the last element of u.
func Ends(u jit.Array) (jit.Array, jit.Array) {
	n := u.Shape()[0]
	return u.Slice([]int{0}, []int{1}).Reshape(), u.Slice([]int{n - 1}, []int{n}).Reshape()
}

// Run applies step to u n times. The caller decides n; when this runs under a
// trace every step is staged, so keep n small or use jit.ScanN.
func Run(step func(jit.Array) jit.Array, u jit.Array, n int) jit.Array {
	for i := 0; i < n; i++ {
		u = step(u)
	}
	return u
}
