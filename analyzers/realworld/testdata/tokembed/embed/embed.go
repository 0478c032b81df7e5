// Package embed holds the small array helpers the token pipeline shares:
// one-hot lookup into an embedding table and a smoothing pass over the
// embedded positions.
package embed

import "github.com/jitlint/jitlint/jit"

// Lookup embeds a 1-D int32 id vector with a [vocab, dim] table by a
// one-hot matrix product (there is no gather).
func Lookup(ids, table jit.Array) jit.Array {
	n := ids.Shape()[0]
	vocab := table.Shape()[0]
	onehot := ids.Reshape(n, 1).Eq(jit.Arange(vocab, jit.Int32).Reshape(1, vocab))
	return onehot.Astype(jit.Float32).MatMul(table)
}

// Smooth runs `passes` rounds of a 3-tap moving average over the rows of a
// [n, dim] matrix (edges are clamped). Each pass is one Go iteration.
func Smooth(x jit.Array, passes int) jit.Array {
	n, d := x.Shape()[0], x.Shape()[1]
	for p := 0; p < passes; p++ {
		left := jit.Concatenate(0, x.Slice([]int{0, 0}, []int{1, d}), x.Slice([]int{0, 0}, []int{n - 1, d}))
		right := jit.Concatenate(0, x.Slice([]int{1, 0}, []int{n, d}), x.Slice([]int{n - 1, 0}, []int{n, d}))
		x = left.Add(x).Add(right).Div(3)
	}
	return x
}
