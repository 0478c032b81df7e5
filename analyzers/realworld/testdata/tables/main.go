// Command tables picks activation functions from a table by name and
// jits them through the table; one holds a debug print, and a helper
// closure held in a variable logs too.
package main

import (
	"fmt"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

var activations = map[string]func(jit.Array) jit.Array{
	"relu": func(x jit.Array) jit.Array { return x.Max(0) },
	"tanh": func(x jit.Array) jit.Array { return x.Tanh() },
	"noisy": func(x jit.Array) jit.Array {
		fmt.Println("noisy activation on", x) // want traceeffect
		return x.Logistic()
	},
}

var traced []string

func main() {
	note := func(name string) {
		traced = append(traced, name) // want traceeffect
	}
	mlp := func(x jit.Array) jit.Array {
		note("mlp")
		return x.Mul(3).Tanh()
	}
	names := make([]string, 0, len(activations))
	for name := range activations {
		names = append(names, name)
	}
	sort.Strings(names)
	x := jit.FromSlice([]float32{-1, 0, 2})
	for _, name := range names {
		f := jit.Jit(activations[name])
		for range 3 {
			x = f.Call(x)
		}
	}
	g := jit.Jit(mlp)
	for range 4 {
		x = g.Call(x)
	}
	fmt.Println(x, traced)
}
