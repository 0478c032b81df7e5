// Command interfaces applies a pipeline of layers held as an interface
// slice; one implementation logs.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type Layer interface {
	Apply(x jit.Array) jit.Array
}

type scale struct{ by float64 }

func (s scale) Apply(x jit.Array) jit.Array { return x.Mul(s.by) }

type logged struct{ name string }

func (l logged) Apply(x jit.Array) jit.Array {
	fmt.Println("applying", l.name) // want traceeffect
	return x.Tanh()
}

func pipeline(layers []Layer) func(jit.Array) jit.Array {
	return func(x jit.Array) jit.Array {
		for _, l := range layers {
			x = l.Apply(x)
		}
		return x
	}
}

func main() {
	layers := []Layer{scale{2}, logged{"tanh"}, scale{0.5}}
	f := jit.Jit(pipeline(layers))
	x := jit.FromSlice([]float32{1, 2, 3})
	for range 4 {
		x = f.Call(x)
	}
	fmt.Println(x)
}
