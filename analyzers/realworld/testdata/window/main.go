// Command window slides a fixed-width window over a signal and smooths
// each window with a jitted kernel: every window has the same shape.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const width = 8

func smooth(w jit.Array) jit.Array { return w.Mean().Add(w.MaxReduce()).Mul(0.5) }

func main() {
	data := make([]float32, 64)
	for i := range data {
		data[i] = float32(i % 9)
	}
	signal := jit.FromSlice(data)
	f := jit.Jit(smooth)
	for off := 0; off+width <= 64; off += 4 {
		fmt.Print(f.Call(signal.Slice([]int{off}, []int{off + width})).Item(), " ")
	}
	fmt.Println("compiles:", f.Stats().Compiles)
}
