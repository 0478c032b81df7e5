// Command gridsearch searches over model depths and activations: the depth
// is a static argument read from a fixed table in the search struct, one
// new value per trial; the activation is a static name looked up in a map
// by the phase, which alternates between two values.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type search struct {
	Depths [5]int
	Phase  map[bool]string
}

// evaluate applies depth residual tanh layers.
func evaluate(x jit.Array, depth int) jit.Array {
	for range depth {
		x = x.Add(x.Mul(0.1).Tanh())
	}
	return x.Pow(2).Mean()
}

// activate applies the named activation.
func activate(x jit.Array, name string) jit.Array {
	if name == "relu" {
		return x.Max(0)
	}
	return x.Tanh()
}

func main() {
	s := search{Depths: [5]int{1, 2, 3, 5, 8}, Phase: map[bool]string{true: "relu", false: "tanh"}}
	eval := jit.Jit(evaluate, jit.StaticArgnums(1))
	x := jit.Full(0.3, jit.Float32, 16)
	best, bestDepth := 1e9, 0
	for trial := range s.Depths {
		loss := eval.Call(x, s.Depths[trial]).Item() // want staticargs
		if loss < best {
			best, bestDepth = loss, s.Depths[trial]
		}
	}
	fmt.Println("best depth", bestDepth, "loss", best)

	act := jit.Jit(activate, jit.StaticArgnums(1))
	y := jit.FromSlice([]float32{-1, 0.5, 2})
	for step := range 16 {
		y = act.Call(y, s.Phase[step%2 == 0])
	}
	fmt.Println(y, "compiles:", act.Stats().Compiles)
}
