package a

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// A wrapper that is only asked for its cache (Stats, Signatures) traces
// nothing: the function is traced by the wrappers that call it, with the
// shapes they pass (here at most 32 rows).

// iwPositions adds a position row per row of x.
func iwPositions(x jit.Array) jit.Array {
	l := x.Shape()[0]
	rows := make([]jit.Array, 0, l)
	for p := 0; p < l; p++ {
		rows = append(rows, x.Slice([]int{p}, []int{p + 1}).Add(float64(p)))
	}
	return jit.Concatenate(0, rows...)
}

func inspectedWrapper() {
	enc := jit.Jit(iwPositions)
	for _, n := range []int{8, 16, 32} {
		enc.Call(jit.Zeros(jit.Float32, n))
	}
	shared := jit.Jit(iwPositions)
	fmt.Println(shared.Signatures(), shared.Stats().Compiles)
}
