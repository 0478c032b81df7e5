// Package integrate has small time-stepping helpers shared by the
// particle and grid simulations.
package integrate

import "github.com/jitlint/jitlint/jit"

// Repeat applies step n times. n comes from the caller; under a trace each
// application is staged separately.
func Repeat[S any](step func(S) S, s S, n int) S {
	for i := 0; i < n; i++ {
		s = step(s)
	}
	return s
}

// Roll shifts x by shift positions along axis, wrapping around (np.roll).
func Roll(x jit.Array, shift, axis int) jit.Array {
	shape := x.Shape()
	n := shape[axis]
	shift = ((shift % n) + n) % n
	if shift == 0 {
		return x
	}
	cut := n - shift
	start, mid, end := make([]int, len(shape)), append([]int{}, shape...), append([]int{}, shape...)
	mid[axis] = cut
	tailStart := make([]int, len(shape))
	tailStart[axis] = cut
	head := x.Slice(start, mid)
	tail := x.Slice(tailStart, end)
	return jit.Concatenate(axis, tail, head)
}

// NextBucket rounds n up to a power of two, at least 16.
func NextBucket(n int) int {
	b := 16
	for b < n {
		b *= 2
	}
	return b
}
