// Command batches evaluates a dataset in minibatches of 16 rows; the last
// batch is shorter (one more compile, not one per batch).
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func evalBatch(x jit.Array) jit.Array { return x.Mul(x).Sum(1).Sqrt().Mean() }

func main() {
	const rows, cols, size = 100, 3, 16
	data := make([]float32, rows*cols)
	for i := range data {
		data[i] = float32(i%11) / 11
	}
	all := jit.FromSlice(data, rows, cols)
	f := jit.Jit(evalBatch)
	sum := 0.0
	for start := 0; start < rows; start += size {
		end := min(start+size, rows)
		sum += f.Call(all.Slice([]int{start, 0}, []int{end, cols})).Item()
	}
	fmt.Println("mean norm:", sum, "compiles:", f.Stats().Compiles)
}
