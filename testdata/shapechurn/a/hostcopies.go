package a

import "github.com/jitlint/jitlint/jit"

// A host copy of an array's data (Float32s, Int32s, ...) has as many
// elements as the array: a state copied back and forth keeps its size.

func hcStep(x jit.Array) jit.Array { return x.Mul(0.9).Add(1) }

func hcRollout() {
	env := jit.Jit(hcStep)
	state := make([]float32, 4)
	for i := 0; i < 100; i++ {
		next := env.Call(jit.FromSlice(state)) // not reported: four elements on every step
		state = next.Float32s()
	}
}
