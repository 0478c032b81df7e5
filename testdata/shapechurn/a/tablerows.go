package a

import "github.com/jitlint/jitlint/jit"

// A row of a table read on each iteration has that row's length: rows
// made alike are one shape.

func trStarts() {
	f := jit.Jit(SumSquares)
	starts := make([][]float32, 8)
	for i := range starts {
		starts[i] = make([]float32, 12)
	}
	for _, s := range starts {
		f.Call(jit.FromSlice(s)) // not reported: every row has twelve
	}
}
