package a

import "github.com/jitlint/jitlint/jit"

// Shapes of the arrays inside a pytree argument.

type batch struct {
	X, Y jit.Array
	Name string `jit:"static"`
}

var fitBatch = jit.Jit(func(b batch) jit.Array { return b.X.Sub(b.Y).Sum() })

func pytreeBatches(data []float32) {
	// Reported: the batch's arrays are 8, 16, 24, … long.
	for n := 8; n <= 64; n += 8 {
		b := batch{X: jit.FromSlice(data[:n]), Y: jit.Zeros(jit.Float32, n), Name: "grow"}
		fitBatch.Call(b) // want `argument b has a different shape on each iteration: one compile per distinct shape \(8 iterations → 8 compiles\)`
	}
	// Not reported: every batch has the same shapes.
	for i := 0; i < 8; i++ {
		b := batch{X: jit.FromSlice(data[i*8 : i*8+8]), Y: jit.Zeros(jit.Float32, 8), Name: "fixed"}
		fitBatch.Call(b)
	}
}
