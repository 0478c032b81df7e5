// Command validate checks inputs with a helper from another package:
// eagerly before the jitted call, then inside the jitted function.
package main

import (
	"fmt"

	"corpus/nn"

	"github.com/jitlint/jitlint/jit"
)

func normalise(x jit.Array) jit.Array { return x.Div(x.Abs().MaxReduce().Add(1e-6)) }

func checked(x jit.Array) jit.Array {
	if !nn.AllFinite(x) { // want tracedbool
		return jit.Zeros(jit.Float32, x.Shape()...)
	}
	return normalise(x)
}

func main() {
	x := jit.FromSlice([]float32{3, -4, 5})
	f := jit.Jit(normalise)
	if nn.AllFinite(x) {
		fmt.Println(f.Call(x))
	}
	fmt.Println(jit.Jit(checked).Call(x))
}
