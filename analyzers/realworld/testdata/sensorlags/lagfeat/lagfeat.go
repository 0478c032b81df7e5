// Package lagfeat builds lagged and smoothed feature matrices from evenly
// sampled sensor series, in the style of a small pandas/NumPy feature kit.
package lagfeat

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Lags stacks x delayed by 1..n samples (zero-filled at the start) into an
// [n, T] matrix, one row per delay.
func Lags(x jit.Array, n int) jit.Array {
	T := x.Shape()[0]
	rows := make([]jit.Array, 0, n)
	for i := 0; i < n; i++ {
		k := i + 1
		shifted := jit.Concatenate(0, jit.Zeros(x.Dtype(), k), x.Slice([]int{0}, []int{T - k}))
		rows = append(rows, shifted.Reshape(1, T))
	}
	return jit.Concatenate(0, rows...)
}

// Smooth applies a [1 2 1]/4 filter to every row of m, passes times.
func Smooth(m jit.Array, passes int) jit.Array {
	r, T := m.Shape()[0], m.Shape()[1]
	for p := 0; p < passes; p++ {
		left := jit.Concatenate(1, m.Slice([]int{0, 0}, []int{r, 1}), m.Slice([]int{0, 0}, []int{r, T - 1}))
		right := jit.Concatenate(1, m.Slice([]int{0, 1}, []int{r, T}), m.Slice([]int{0, T - 1}, []int{r, T}))
		m = left.Add(m.Mul(2)).Add(right).Div(4)
	}
	return m
}

// Describe prints a one-line summary of a feature matrix.
func Describe(name string, m jit.Array) {
	fmt.Printf("%-10s shape=%v dtype=%v\n", name, m.Shape(), m.Dtype())
}
