// Package ops has helpers that stage operations; the traced analyzer
// exports that as facts for the packages that loop over them.
package ops

import "github.com/jitlint/jitlint/jit"

// Step stages four operations.
func Step(x jit.Array) jit.Array { // want Step:`stages 4 ops`
	return x.Sin().Mul(x.Cos()).Add(1)
}

// Twice stages Step twice.
func Twice(x jit.Array) jit.Array { // want Twice:`stages 8 ops`
	return Step(Step(x))
}

// Count stages nothing.
func Count(n int) int { return n + 1 } // want Count:`returns \+\(p0 1\)`

// Repeat applies Step n times: a loop whose count the caller's n sets.
func Repeat(x jit.Array, n int) jit.Array { // want Repeat:`loop at ops.go:22: pure:max\(/\(p1 1\) 0\) times, 4 ops each; stages 4 ops`
	for i := 0; i < n; i++ {
		x = Step(x)
	}
	return x
}

// Blocks applies block n times: a loop whose count and body its caller
// sets (the operations are those of the function it passes).
func Blocks(n int, x jit.Array, block func(i int, x jit.Array) jit.Array) jit.Array { // want Blocks:`loop at ops.go:31: pure:max\(/\(p0 1\) 0\) times, 0 ops each and what p2 stages`
	for i := 0; i < n; i++ {
		x = block(i, x)
	}
	return x
}

// MapAll is a generic map over a slice.
func MapAll[T, U any](xs []T, f func(T) U) []U { // want MapAll:`loop at ops.go:40: pure:max\(/\(len\(p0\) 1\) 0\) times, 0 ops each and what p1 stages`
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Rows stages a few operations per row of x: a loop whose count the shape of
// the caller's array sets.
func Rows(x jit.Array) jit.Array { // want Rows:`loop at ops.go:50: pure:max\(/\(index\(shape\(p0\) 0\) 1\) 0\) times, 3 ops each; stages 4 ops`
	acc := x.Sum()
	for i := 0; i < x.Shape()[0]; i++ {
		acc = acc.Add(x.Slice([]int{i}, []int{i + 1}).Sum())
	}
	return acc
}
